#include "store/postgres/pg_state_reader.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <string>
#include <utility>

namespace allot {

namespace {

// Runs a read; when it failed because the session had ended (a restarted
// server, a terminated backend), reconnects and runs it once more.
template <typename Read>
auto with_one_reconnect(PgConnection& db, Read read) -> decltype(read()) {
  ALLOT_RETURN_IF_ERROR(db.reset_if_broken());
  auto result = read();
  if (result.ok() || !db.broken()) return result;
  ALLOT_RETURN_IF_ERROR(db.reset_if_broken());
  return read();
}

constexpr std::string_view kAllocationColumns =
    "SELECT workload_id, start_ms, coalesce(end_ms, 0), end_ms IS NULL, team, submitted_by, "
    "workload_name, flavor, own_gpu, own_cpu_millis, own_memory_bytes, borrowed_gpu, "
    "borrowed_cpu_millis, borrowed_memory_bytes FROM allot_allocations ";

Result<AllocationRecord> allocation_row(const PgResult& rows, int row) {
  AllocationRecord a;
  ALLOT_ASSIGN_OR_RETURN(int64_t id, rows.int64(row, 0));
  a.workload_id = WorkloadId(static_cast<uint64_t>(id));
  ALLOT_ASSIGN_OR_RETURN(a.start_ms, rows.int64(row, 1));
  ALLOT_ASSIGN_OR_RETURN(int64_t end, rows.int64(row, 2));
  if (!rows.boolean(row, 3)) a.end_ms = end;
  a.team = rows.bytes(row, 4);
  a.user = rows.bytes(row, 5);
  a.workload_name = rows.bytes(row, 6);
  a.flavor = rows.bytes(row, 7);
  std::array<int64_t, 6> amounts{};
  for (size_t i = 0; i < amounts.size(); ++i) {
    ALLOT_ASSIGN_OR_RETURN(amounts[i], rows.int64(row, 8 + static_cast<int>(i)));
  }
  a.own = {amounts[0], amounts[1], amounts[2]};
  a.borrowed = {amounts[3], amounts[4], amounts[5]};
  return a;
}

}  // namespace

Result<std::vector<AllocationRecord>> PgStateReader::query_allocations(std::string_view where,
                                                                       const PgParams& params) {
  ALLOT_ASSIGN_OR_RETURN(PgResult rows,
                         db_.query(std::string(kAllocationColumns) + std::string(where), params));
  std::vector<AllocationRecord> found;
  found.reserve(static_cast<size_t>(rows.rows()));
  for (int row = 0; row < rows.rows(); ++row) {
    ALLOT_ASSIGN_OR_RETURN(AllocationRecord a, allocation_row(rows, row));
    found.push_back(std::move(a));
  }
  return found;
}

Result<std::vector<AllocationRecord>> PgStateReader::allocations(int64_t from_ms, int64_t to_ms) {
  return with_one_reconnect(db_, [&] {
    return query_allocations(
        "WHERE start_ms < $2 AND (end_ms IS NULL OR end_ms > $1) ORDER BY workload_id, start_ms",
        PgParams().int64(from_ms).int64(to_ms));
  });
}

Result<std::vector<GpuUtilizationRecord>> PgStateReader::gpu_utilization(int64_t from_ms,
                                                                         int64_t to_ms) {
  return with_one_reconnect(db_, [&] { return gpu_utilization_once(from_ms, to_ms); });
}

Result<std::vector<GpuUtilizationRecord>> PgStateReader::gpu_utilization_once(int64_t from_ms,
                                                                              int64_t to_ms) {
  ALLOT_ASSIGN_OR_RETURN(PgResult rows,
                         db_.query("SELECT workload_id, gpu, start_ms, end_ms, utilization_ppm "
                                   "FROM allot_gpu_utilization WHERE start_ms < $2 AND end_ms > $1 "
                                   "ORDER BY workload_id, gpu, start_ms",
                                   PgParams().int64(from_ms).int64(to_ms)));
  std::vector<GpuUtilizationRecord> found;
  found.reserve(static_cast<size_t>(rows.rows()));
  for (int row = 0; row < rows.rows(); ++row) {
    GpuUtilizationRecord u;
    ALLOT_ASSIGN_OR_RETURN(int64_t id, rows.int64(row, 0));
    u.workload_id = WorkloadId(static_cast<uint64_t>(id));
    u.gpu = rows.bytes(row, 1);
    ALLOT_ASSIGN_OR_RETURN(u.start_ms, rows.int64(row, 2));
    ALLOT_ASSIGN_OR_RETURN(u.end_ms, rows.int64(row, 3));
    ALLOT_ASSIGN_OR_RETURN(u.utilization_ppm, rows.int64(row, 4));
    found.push_back(std::move(u));
  }
  return found;
}

Result<StoredState> PgStateReader::load() {
  return with_one_reconnect(db_, [this] { return load_once(); });
}

Result<StoredState> PgStateReader::load_once() {
  ALLOT_RETURN_IF_ERROR(db_.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"));
  StoredState state;
  Status status = read_state(state);
  // A read-only transaction has nothing to undo: COMMIT just ends it.
  Status ended = db_.execute(status.ok() ? "COMMIT" : "ROLLBACK");
  if (status.ok()) status = ended;
  if (!status.ok()) return status;
  return state;
}

Status PgStateReader::read_state(StoredState& state) {
  ALLOT_ASSIGN_OR_RETURN(
      PgResult objects,
      db_.query("SELECT kind, name, document FROM allot_objects ORDER BY kind, name"));
  state.objects.reserve(static_cast<size_t>(objects.rows()));
  for (int row = 0; row < objects.rows(); ++row) {
    state.objects.push_back({objects.bytes(row, 0), objects.bytes(row, 1), objects.bytes(row, 2)});
  }
  ALLOT_RETURN_IF_ERROR(read_workloads(state.workloads));
  ALLOT_ASSIGN_OR_RETURN(PgResult meta,
                         db_.query("SELECT value FROM allot_meta WHERE key = 'max_workload_id'"));
  if (meta.rows() != 1) return Status(ErrorCode::kInternal, "the store has no max_workload_id row");
  ALLOT_ASSIGN_OR_RETURN(int64_t max_value, meta.int64(0, 0));
  if (max_value < 0) {
    return Status(ErrorCode::kInternal, "the store's max_workload_id is negative",
                  std::to_string(max_value));
  }
  if (max_value > 0) state.max_workload_id = WorkloadId(static_cast<uint64_t>(max_value));
  ALLOT_ASSIGN_OR_RETURN(
      state.open_allocations,
      query_allocations("WHERE end_ms IS NULL ORDER BY workload_id, start_ms", PgParams()));
  ALLOT_ASSIGN_OR_RETURN(
      PgResult floor, db_.query("SELECT value FROM allot_meta WHERE key = 'audit_outbox_floor'"));
  if (floor.rows() != 1) {
    return Status(ErrorCode::kInternal, "the store has no audit_outbox_floor row");
  }
  ALLOT_ASSIGN_OR_RETURN(const int64_t floor_value, floor.int64(0, 0));
  state.audit_outbox_floor = static_cast<uint64_t>(std::max<int64_t>(floor_value, 0));
  return read_audit_outbox(state.audit_outbox);
}

Status PgStateReader::read_audit_outbox(std::vector<AuditOutboxRecord>& rows) {
  ALLOT_ASSIGN_OR_RETURN(
      PgResult read,
      db_.query("SELECT sequence, audit_id, document FROM allot_audit_outbox ORDER BY sequence"));
  rows.reserve(static_cast<size_t>(read.rows()));
  for (int row = 0; row < read.rows(); ++row) {
    ALLOT_ASSIGN_OR_RETURN(int64_t sequence, read.int64(row, 0));
    rows.push_back(
        {static_cast<uint64_t>(sequence), read.bytes(row, 1), read.bytes(row, 2), WorkloadId()});
  }
  return {};
}

Status PgStateReader::read_workloads(std::vector<WorkloadRecord>& workloads) {
  ALLOT_ASSIGN_OR_RETURN(
      PgResult rows,
      db_.query("SELECT id, namespace, name, team, phase, document FROM allot_workloads "
                "ORDER BY id"));
  workloads.reserve(static_cast<size_t>(rows.rows()));
  for (int row = 0; row < rows.rows(); ++row) {
    WorkloadRecord workload;
    ALLOT_ASSIGN_OR_RETURN(int64_t id, rows.int64(row, 0));
    workload.id = WorkloadId(static_cast<uint64_t>(id));
    workload.namespace_name = rows.bytes(row, 1);
    workload.name = rows.bytes(row, 2);
    workload.team = rows.bytes(row, 3);
    const std::string phase = rows.bytes(row, 4);
    const std::optional<WorkloadPhase> parsed = parse_workload_phase(phase);
    if (!parsed) {
      return Status(ErrorCode::kInternal,
                    "the store holds an unknown workload phase \"" + phase + "\"",
                    "workload id " + std::to_string(id));
    }
    workload.phase = *parsed;
    workload.document = rows.bytes(row, 5);
    workloads.push_back(std::move(workload));
  }
  return {};
}

Result<std::vector<EventRecord>> PgStateReader::events(WorkloadId workload_id, uint64_t after) {
  constexpr auto kMax = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
  if (!workload_id.valid() || workload_id.value() > kMax || after >= kMax) {
    return std::vector<EventRecord>();
  }
  return with_one_reconnect(db_, [&] { return events_once(workload_id, after); });
}

Result<std::vector<EventRecord>> PgStateReader::events_once(WorkloadId workload_id,
                                                            uint64_t after) {
  ALLOT_ASSIGN_OR_RETURN(
      PgResult rows,
      db_.query("SELECT sequence, workload_id, at_ms, type, reason, message FROM allot_events "
                "WHERE workload_id = $1 AND sequence > $2 ORDER BY sequence",
                PgParams()
                    .int64(static_cast<int64_t>(workload_id.value()))
                    .int64(static_cast<int64_t>(after))));
  std::vector<EventRecord> events;
  events.reserve(static_cast<size_t>(rows.rows()));
  for (int row = 0; row < rows.rows(); ++row) {
    EventRecord event;
    ALLOT_ASSIGN_OR_RETURN(int64_t sequence, rows.int64(row, 0));
    ALLOT_ASSIGN_OR_RETURN(int64_t id, rows.int64(row, 1));
    ALLOT_ASSIGN_OR_RETURN(event.at_ms, rows.int64(row, 2));
    event.sequence = static_cast<uint64_t>(sequence);
    event.workload_id = WorkloadId(static_cast<uint64_t>(id));
    event.type = rows.bytes(row, 3);
    event.reason = rows.bytes(row, 4);
    event.message = rows.bytes(row, 5);
    events.push_back(std::move(event));
  }
  return events;
}

}  // namespace allot
