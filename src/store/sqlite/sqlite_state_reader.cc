#include "store/sqlite/sqlite_state_reader.h"

#include <algorithm>
#include <cstddef>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace allot {
namespace {

constexpr std::string_view kEvents =
    "SELECT sequence, workload_id, at_ms, type, reason, message FROM events "
    "WHERE workload_id = ?1 AND sequence > ?2 ORDER BY sequence";

// A scan of the ledger in key order (schema version 4 has no index of the
// open intervals: keeping one cost every admission), once at startup.
constexpr std::string_view kOpenAllocations =
    "SELECT workload_id, start_ms, end_ms, team, submitted_by, workload_name, flavor, own_gpu, "
    "own_cpu_millis, own_memory_bytes, borrowed_gpu, borrowed_cpu_millis, borrowed_memory_bytes "
    "FROM allocations WHERE end_ms IS NULL ORDER BY workload_id, start_ms";

// The same columns, in the same order, as kOpenAllocations.
constexpr std::string_view kAllocations =
    "SELECT workload_id, start_ms, end_ms, team, submitted_by, workload_name, flavor, own_gpu, "
    "own_cpu_millis, own_memory_bytes, borrowed_gpu, borrowed_cpu_millis, borrowed_memory_bytes "
    "FROM allocations WHERE start_ms < ?2 AND (end_ms IS NULL OR end_ms > ?1) "
    "ORDER BY workload_id, start_ms";

constexpr std::string_view kGpuUtilization =
    "SELECT workload_id, gpu, start_ms, end_ms, utilization_ppm FROM gpu_utilization "
    "WHERE start_ms < ?2 AND end_ms > ?1 ORDER BY workload_id, gpu, start_ms";

// Sequences are positive int64s (SQLite's integers).
constexpr uint64_t kMaxSequence = std::numeric_limits<int64_t>::max();

// A workload id column: ids are stored as their value (1..INT64_MAX).
WorkloadId workload_id_column(const SqliteStatement& row, int column) {
  return WorkloadId(static_cast<uint64_t>(row.column_int64(column)));
}

// The result of a `SELECT count(*)`, to reserve room before reading the rows.
Result<size_t> count_rows(SqliteStatement& count) {
  ResetOnExit reset(count);
  ALLOT_ASSIGN_OR_RETURN(bool has_row, count.step());
  return has_row ? static_cast<size_t>(count.column_int64(0)) : size_t{0};
}

Result<WorkloadRecord> workload_row(const SqliteStatement& row) {
  WorkloadRecord workload;
  workload.id = workload_id_column(row, 0);
  workload.namespace_name = row.column_text(1);
  workload.name = row.column_text(2);
  workload.team = row.column_text(3);
  const std::string phase = row.column_text(4);
  std::optional<WorkloadPhase> parsed = parse_workload_phase(phase);
  if (!parsed) {
    return Status(ErrorCode::kInternal,
                  "the store holds an unknown workload phase \"" + phase + "\"",
                  "workload id " + std::to_string(workload.id.value()));
  }
  workload.phase = *parsed;
  workload.document = row.column_text(5);
  return workload;
}

}  // namespace

Result<SqliteStateReader> SqliteStateReader::create(SqliteConnection db) {
  auto prepare = [&db](std::string_view sql) { return db.prepare(sql); };
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement begin, prepare("BEGIN"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement end, prepare("COMMIT"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement count_objects, prepare("SELECT count(*) FROM objects"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement objects,
                         prepare("SELECT kind, name, document FROM objects ORDER BY kind, name"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement count_workloads,
                         prepare("SELECT count(*) FROM workloads"));
  ALLOT_ASSIGN_OR_RETURN(
      SqliteStatement workloads,
      prepare("SELECT id, namespace, name, team, phase, document, audit_sequence, audit_id, "
              "audit_document FROM workloads ORDER BY id"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement max_workload_id,
                         prepare("SELECT value FROM meta WHERE key = 'max_workload_id'"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement audit_outbox_floor,
                         prepare("SELECT value FROM meta WHERE key = 'audit_outbox_floor'"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement events, prepare(kEvents));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement open_allocations, prepare(kOpenAllocations));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement allocations, prepare(kAllocations));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement utilization, prepare(kGpuUtilization));
  ALLOT_ASSIGN_OR_RETURN(
      SqliteStatement audit_outbox,
      prepare("SELECT sequence, audit_id, document FROM audit_outbox ORDER BY sequence"));
  return SqliteStateReader(
      std::move(db),
      Statements{std::move(begin), std::move(end), std::move(count_objects), std::move(objects),
                 std::move(count_workloads), std::move(workloads), std::move(max_workload_id),
                 std::move(audit_outbox_floor), std::move(events), std::move(open_allocations),
                 std::move(allocations), std::move(utilization), std::move(audit_outbox)});
}

SqliteStateReader::SqliteStateReader(SqliteConnection db, Statements statements)
    : db_(std::move(db)), statements_(std::move(statements)) {}

Result<StoredState> SqliteStateReader::load() {
  ALLOT_RETURN_IF_ERROR(statements_.begin.execute());
  StoredState state;
  Status status = read_state(state);
  // A read transaction has nothing to undo: COMMIT just ends it.
  Status ended = statements_.end.execute();
  if (status.ok()) status = ended;
  if (!status.ok()) return status;
  return state;
}

namespace {

// A meta row's value: it starts at 0 and only ever rises.
Result<uint64_t> meta_value(SqliteStatement& read, std::string_view key) {
  ResetOnExit reset(read);
  ALLOT_ASSIGN_OR_RETURN(bool has_row, read.step());
  if (!has_row)
    return Status(ErrorCode::kInternal, "the store has no " + std::string(key) + " row");
  const int64_t value = read.column_int64(0);
  if (value < 0) {
    return Status(ErrorCode::kInternal, "the store's " + std::string(key) + " is negative",
                  std::to_string(value));
  }
  return static_cast<uint64_t>(value);
}

}  // namespace

Status SqliteStateReader::read_state(StoredState& state) {
  ALLOT_RETURN_IF_ERROR(read_objects(state.objects));
  ALLOT_ASSIGN_OR_RETURN(state.audit_outbox_floor,
                         meta_value(statements_.audit_outbox_floor, "audit_outbox_floor"));
  ALLOT_RETURN_IF_ERROR(read_workloads(state));
  // The meta row rises only to a committed id (>= 1).
  ALLOT_ASSIGN_OR_RETURN(const uint64_t max_value,
                         meta_value(statements_.max_workload_id, "max_workload_id"));
  if (max_value > 0) state.max_workload_id = WorkloadId(max_value);
  ALLOT_RETURN_IF_ERROR(read_audit_outbox(state.audit_outbox));
  ResetOnExit reset_open(statements_.open_allocations);
  return read_allocations(statements_.open_allocations, state.open_allocations);
}

Status SqliteStateReader::read_audit_outbox(std::vector<AuditOutboxRecord>& rows) {
  // After the rows that ride in workloads' rows (read_workloads): all of
  // them, in sequence order.
  const size_t riding = rows.size();
  SqliteStatement& read = statements_.audit_outbox;
  ResetOnExit reset(read);
  for (;;) {
    ALLOT_ASSIGN_OR_RETURN(bool has_row, read.step());
    if (!has_row) break;
    rows.push_back({static_cast<uint64_t>(read.column_int64(0)), read.column_text(1),
                    read.column_text(2), WorkloadId()});
  }
  const auto by_sequence = [](const AuditOutboxRecord& a, const AuditOutboxRecord& b) {
    return a.sequence < b.sequence;
  };
  std::sort(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(riding), by_sequence);
  std::inplace_merge(rows.begin(), rows.begin() + static_cast<std::ptrdiff_t>(riding), rows.end(),
                     by_sequence);
  return {};
}

Status SqliteStateReader::read_allocations(SqliteStatement& rows,
                                           std::vector<AllocationRecord>& out) {
  for (;;) {
    ALLOT_ASSIGN_OR_RETURN(bool has_row, rows.step());
    if (!has_row) return {};
    AllocationRecord a;
    a.workload_id = workload_id_column(rows, 0);
    a.start_ms = rows.column_int64(1);
    if (!rows.column_is_null(2)) a.end_ms = rows.column_int64(2);
    a.team = rows.column_text(3);
    a.user = rows.column_text(4);
    a.workload_name = rows.column_text(5);
    a.flavor = rows.column_text(6);
    a.own = {rows.column_int64(7), rows.column_int64(8), rows.column_int64(9)};
    a.borrowed = {rows.column_int64(10), rows.column_int64(11), rows.column_int64(12)};
    out.push_back(std::move(a));
  }
}

Result<std::vector<AllocationRecord>> SqliteStateReader::allocations(int64_t from_ms,
                                                                     int64_t to_ms) {
  std::vector<AllocationRecord> found;
  found.reserve(last_allocations_);
  SqliteStatement& rows = statements_.allocations;
  ResetOnExit reset(rows);
  rows.bind(1, from_ms).bind(2, to_ms);
  ALLOT_RETURN_IF_ERROR(read_allocations(rows, found));
  last_allocations_ = found.size();
  return found;
}

Result<std::vector<GpuUtilizationRecord>> SqliteStateReader::gpu_utilization(int64_t from_ms,
                                                                             int64_t to_ms) {
  std::vector<GpuUtilizationRecord> found;
  SqliteStatement& rows = statements_.utilization;
  ResetOnExit reset(rows);
  rows.bind(1, from_ms).bind(2, to_ms);
  for (;;) {
    ALLOT_ASSIGN_OR_RETURN(bool has_row, rows.step());
    if (!has_row) return found;
    found.push_back({workload_id_column(rows, 0), rows.column_text(1), rows.column_int64(2),
                     rows.column_int64(3), rows.column_int64(4)});
  }
}

Status SqliteStateReader::read_objects(std::vector<ObjectRecord>& objects) {
  ALLOT_ASSIGN_OR_RETURN(size_t count, count_rows(statements_.count_objects));
  objects.reserve(count);
  SqliteStatement& rows = statements_.objects;
  ResetOnExit reset(rows);
  for (;;) {
    ALLOT_ASSIGN_OR_RETURN(bool has_row, rows.step());
    if (!has_row) return {};
    objects.push_back({rows.column_text(0), rows.column_text(1), rows.column_text(2)});
  }
}

Status SqliteStateReader::read_workloads(StoredState& state) {
  ALLOT_ASSIGN_OR_RETURN(size_t count, count_rows(statements_.count_workloads));
  state.workloads.reserve(count);
  SqliteStatement& rows = statements_.workloads;
  ResetOnExit reset(rows);
  for (;;) {
    ALLOT_ASSIGN_OR_RETURN(bool has_row, rows.step());
    if (!has_row) return {};
    ALLOT_ASSIGN_OR_RETURN(WorkloadRecord workload, workload_row(rows));
    state.workloads.push_back(std::move(workload));
    // An outbox row riding in the workload's row; at or below the floor it
    // was deleted by a ranged delete (store.h).
    if (rows.column_is_null(6)) continue;
    const auto sequence = static_cast<uint64_t>(rows.column_int64(6));
    if (sequence <= state.audit_outbox_floor) continue;
    state.audit_outbox.push_back(
        {sequence, rows.column_text(7), rows.column_text(8), WorkloadId()});
  }
}

Result<std::vector<EventRecord>> SqliteStateReader::events(WorkloadId workload_id, uint64_t after) {
  std::vector<EventRecord> events;
  if (after >= kMaxSequence) return events;
  SqliteStatement& rows = statements_.events;
  ResetOnExit reset(rows);
  // The invalid id binds as -1 and matches no row.
  rows.bind(1, static_cast<int64_t>(workload_id.value())).bind(2, static_cast<int64_t>(after));
  for (;;) {
    ALLOT_ASSIGN_OR_RETURN(bool has_row, rows.step());
    if (!has_row) return events;
    events.push_back({static_cast<uint64_t>(rows.column_int64(0)), workload_id_column(rows, 1),
                      rows.column_int64(2), rows.column_text(3), rows.column_text(4),
                      rows.column_text(5)});
  }
}

}  // namespace allot
