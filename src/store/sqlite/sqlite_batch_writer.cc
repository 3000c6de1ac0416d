#include "store/sqlite/sqlite_batch_writer.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/ids.h"
#include "store/batch_rules.h"

namespace allot {
namespace {

// An upsert, not INSERT OR REPLACE: REPLACE would resolve the UNIQUE
// (namespace, name) conflict by deleting the other workload. ?7..?9: the
// audit outbox row that rides in the row (store.h), or NULLs; ?10: the
// floor. A put without one keeps the row's riding one while it is above the
// floor, and drops it once a ranged delete took it.
constexpr std::string_view kPutWorkload =
    "INSERT INTO workloads (id, namespace, name, team, phase, document, audit_sequence, "
    "audit_id, audit_document) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9) "
    "ON CONFLICT (id) DO UPDATE SET "
    "namespace = excluded.namespace, name = excluded.name, team = excluded.team, "
    "phase = excluded.phase, document = excluded.document, "
    "audit_sequence = CASE WHEN ?7 IS NOT NULL THEN ?7 "
    "WHEN audit_sequence > ?10 THEN audit_sequence END, "
    "audit_id = CASE WHEN ?7 IS NOT NULL THEN ?8 WHEN audit_sequence > ?10 THEN audit_id END, "
    "audit_document = CASE WHEN ?7 IS NOT NULL THEN ?9 "
    "WHEN audit_sequence > ?10 THEN audit_document END";

// Moves a workload's riding outbox row above the floor (?2) into the table,
// before the workload is deleted or another row rides in its place.
constexpr std::string_view kMoveRidingAuditRow =
    "INSERT OR REPLACE INTO audit_outbox (sequence, audit_id, document) "
    "SELECT audit_sequence, audit_id, audit_document FROM workloads "
    "WHERE id = ?1 AND audit_sequence > ?2";

constexpr std::string_view kPutObject =
    "INSERT INTO objects (kind, name, document) VALUES (?1, ?2, ?3) "
    "ON CONFLICT (kind, name) DO UPDATE SET document = excluded.document";

constexpr std::string_view kAppendEvent =
    "INSERT INTO events (workload_id, at_ms, type, reason, message) "
    "VALUES (?1, ?2, ?3, ?4, ?5)";

constexpr std::string_view kPutAllocationInto =
    "INSERT OR REPLACE INTO allocations (workload_id, start_ms, end_ms, team, submitted_by, "
    "workload_name, flavor, own_gpu, own_cpu_millis, own_memory_bytes, borrowed_gpu, "
    "borrowed_cpu_millis, borrowed_memory_bytes) VALUES ";
constexpr int kAllocationColumns = 13;

// The allocation puts of a batch go kAllocationsPerInsert rows to a statement
// (the rest one by one): an admitting pass opens thousands of intervals, and
// one statement per row spent as much on stepping as on storing. The rows
// apply in order, so a later put of the same key still replaces an earlier.
// Few and large: a statement of many rows opens a statement journal, and its
// release inside the batch's SAVEPOINT truncates the in-memory sub-journal,
// which walks the whole sub-journal of the batch (every page the batch
// touched so far, in 1 KiB chunks). At 32 rows a statement that walk was
// about 40% of the ledger's cost on an admitting pass of 8,000 admissions
// (docs/benchmarks.md, "Metering overhead, next step"); at 256 it is 31
// walks. Fewer if the library allows fewer parameters (999 before 3.32).
constexpr size_t kAllocationsPerInsert = 256;

// "INSERT ... VALUES (?1, ..., ?13), (?14, ...)" for `rows` rows.
std::string put_allocations_sql(size_t rows) {
  std::string sql(kPutAllocationInto);
  for (size_t row = 0; row < rows; ++row) {
    sql += row == 0 ? "(" : ", (";
    for (int column = 1; column <= kAllocationColumns; ++column) {
      if (column > 1) sql += ", ";
      sql += "?" + std::to_string(row * static_cast<size_t>(kAllocationColumns) +
                                  static_cast<size_t>(column));
    }
    sql += ")";
  }
  return sql;
}

constexpr std::string_view kPutGpuUtilization =
    "INSERT OR REPLACE INTO gpu_utilization (workload_id, gpu, start_ms, end_ms, utilization_ppm) "
    "VALUES (?1, ?2, ?3, ?4, ?5)";

constexpr std::string_view kAppendAuditOutbox =
    "INSERT OR REPLACE INTO audit_outbox (sequence, audit_id, document) VALUES (?1, ?2, ?3)";

// SQLite keeps integers signed; ids and sequences round-trip through the cast.
// The invalid WorkloadId (never stored, see validate_batch) binds as -1 and
// matches no row.
int64_t as_sql(uint64_t value) { return static_cast<int64_t>(value); }
int64_t as_sql(WorkloadId id) { return as_sql(id.value()); }

}  // namespace

Result<SqliteBatchWriter> SqliteBatchWriter::create(SqliteConnection db) {
  auto prepare = [&db](std::string_view sql) { return db.prepare(sql); };
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement begin, prepare("BEGIN IMMEDIATE"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement commit, prepare("COMMIT"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement rollback, prepare("ROLLBACK"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement savepoint, prepare("SAVEPOINT batch"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement release, prepare("RELEASE batch"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement rollback_to, prepare("ROLLBACK TO batch"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement delete_object,
                         prepare("DELETE FROM objects WHERE kind = ?1 AND name = ?2"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement put_object, prepare(kPutObject));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement delete_events,
                         prepare("DELETE FROM events WHERE workload_id = ?1"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement delete_workload,
                         prepare("DELETE FROM workloads WHERE id = ?1"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement put_workload, prepare(kPutWorkload));
  ALLOT_ASSIGN_OR_RETURN(
      SqliteStatement raise_max_id,
      prepare("UPDATE meta SET value = max(value, ?1) WHERE key = 'max_workload_id'"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement append_event, prepare(kAppendEvent));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement put_allocation, prepare(put_allocations_sql(1)));
  const size_t allocations_per_insert =
      std::clamp(static_cast<size_t>(db.max_parameters()) / static_cast<size_t>(kAllocationColumns),
                 size_t{1}, kAllocationsPerInsert);
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement put_allocations,
                         prepare(put_allocations_sql(allocations_per_insert)));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement put_utilization, prepare(kPutGpuUtilization));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement delete_audit_outbox,
                         prepare("DELETE FROM audit_outbox WHERE sequence <= ?1"));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement append_audit_outbox, prepare(kAppendAuditOutbox));
  ALLOT_ASSIGN_OR_RETURN(SqliteStatement move_riding_audit_row, prepare(kMoveRidingAuditRow));
  ALLOT_ASSIGN_OR_RETURN(
      SqliteStatement raise_audit_floor,
      prepare("UPDATE meta SET value = max(value, ?1) WHERE key = 'audit_outbox_floor'"));
  ALLOT_ASSIGN_OR_RETURN(const int64_t floor,
                         db.query_int("SELECT value FROM meta WHERE key = 'audit_outbox_floor'"));
  // Every stored row's id is at most this (primary key: one index step).
  ALLOT_ASSIGN_OR_RETURN(const int64_t id_bound,
                         db.query_int("SELECT coalesce(max(id), 0) FROM workloads"));
  return SqliteBatchWriter(std::move(db),
                           Statements{std::move(begin),
                                      std::move(commit),
                                      std::move(rollback),
                                      std::move(savepoint),
                                      std::move(release),
                                      std::move(rollback_to),
                                      std::move(delete_object),
                                      std::move(put_object),
                                      std::move(delete_events),
                                      std::move(delete_workload),
                                      std::move(put_workload),
                                      std::move(raise_max_id),
                                      std::move(append_event),
                                      std::move(put_allocation),
                                      std::move(put_allocations),
                                      std::move(put_utilization),
                                      std::move(delete_audit_outbox),
                                      std::move(append_audit_outbox),
                                      std::move(move_riding_audit_row),
                                      std::move(raise_audit_floor)},
                           allocations_per_insert,
                           static_cast<uint64_t>(std::max<int64_t>(floor, 0)),
                           static_cast<uint64_t>(std::max<int64_t>(id_bound, 0)));
}

SqliteBatchWriter::SqliteBatchWriter(SqliteConnection db, Statements statements,
                                     size_t allocations_per_insert, uint64_t audit_floor,
                                     uint64_t workload_id_bound)
    : db_(std::move(db)),
      statements_(std::move(statements)),
      allocations_per_insert_(allocations_per_insert),
      audit_floor_(audit_floor),
      workload_id_bound_(workload_id_bound) {}

Status SqliteBatchWriter::begin() {
  floor_at_begin_ = audit_floor_;
  return statements_.begin.execute();
}

Status SqliteBatchWriter::commit() { return statements_.commit.execute(); }

void SqliteBatchWriter::rollback() {
  if (db_.in_transaction()) (void)statements_.rollback.execute();
  audit_floor_ = floor_at_begin_;  // the transaction's ranged deletes are gone
}

Status SqliteBatchWriter::apply(const WriteBatch& batch) {
  ALLOT_RETURN_IF_ERROR(statements_.savepoint.execute());
  const uint64_t floor_before = audit_floor_;
  Status status = apply_parts(batch);
  if (status.ok()) status = statements_.release.execute();
  if (status.ok()) return status;
  audit_floor_ = floor_before;  // the batch's ranged delete is undone with it
  if (!db_.in_transaction()) return status;
  // Undo this batch only. Should that fail, drop the whole transaction rather
  // than commit half a batch.
  if (!statements_.rollback_to.execute().ok() || !statements_.release.execute().ok()) rollback();
  return status;
}

// The ledger's puts go first: they touch no table of the other parts, so the
// result is store.h's order's. Their many-row statements each open and release
// a statement journal, and a release walks the batch's sub-journal so far:
// first, it holds almost nothing (after the workload puts, every page they
// rewrote; 3.7 instead of 6.3 ms for 8,000 puts, docs/benchmarks.md).
Status SqliteBatchWriter::apply_parts(const WriteBatch& batch) {
  ALLOT_RETURN_IF_ERROR(put_allocations(batch));
  ALLOT_RETURN_IF_ERROR(delete_objects(batch));
  ALLOT_RETURN_IF_ERROR(put_objects(batch));
  ALLOT_RETURN_IF_ERROR(delete_workloads(batch));
  ALLOT_RETURN_IF_ERROR(put_workloads(batch));
  ALLOT_RETURN_IF_ERROR(append_events(batch));
  ALLOT_RETURN_IF_ERROR(put_gpu_utilization(batch));
  return apply_audit_outbox(batch);
}

Status SqliteBatchWriter::delete_objects(const WriteBatch& batch) {
  for (const ObjectKey& key : batch.delete_objects) {
    ALLOT_RETURN_IF_ERROR(statements_.delete_object.bind(1, key.kind).bind(2, key.name).execute());
  }
  return {};
}

Status SqliteBatchWriter::put_objects(const WriteBatch& batch) {
  for (const ObjectRecord& object : batch.put_objects) {
    SqliteStatement& put = statements_.put_object;
    ALLOT_RETURN_IF_ERROR(
        put.bind(1, object.kind).bind(2, object.name).bind(3, object.document).execute());
  }
  return {};
}

Status SqliteBatchWriter::move_riding_audit_row(WorkloadId id) {
  return statements_.move_riding_audit_row.bind(1, as_sql(id))
      .bind(2, as_sql(audit_floor_))
      .execute();
}

Status SqliteBatchWriter::delete_workloads(const WriteBatch& batch) {
  for (WorkloadId id : batch.delete_workloads) {
    ALLOT_RETURN_IF_ERROR(move_riding_audit_row(id));
    ALLOT_RETURN_IF_ERROR(statements_.delete_events.bind(1, as_sql(id)).execute());
    ALLOT_RETURN_IF_ERROR(statements_.delete_workload.bind(1, as_sql(id)).execute());
  }
  return {};
}

const AuditOutboxRecord* SqliteBatchWriter::riding_row(const WriteBatch& batch, WorkloadId id) {
  // Above the batch's own ranged delete too: it applies before the appends.
  const uint64_t floor = std::max(audit_floor_, batch.delete_audit_outbox_through);
  for (size_t i = 0; i < batch.append_audit_outbox.size(); ++i) {
    const AuditOutboxRecord& row = batch.append_audit_outbox[i];
    if (row.with_workload != id || row.sequence <= floor) continue;
    if (std::find(rode_.begin(), rode_.end(), i) != rode_.end()) continue;
    rode_.push_back(i);
    return &row;
  }
  return nullptr;
}

Status SqliteBatchWriter::put_workload(const WorkloadRecord& workload,
                                       const AuditOutboxRecord* riding) {
  SqliteStatement& put = statements_.put_workload;
  put.bind(1, as_sql(workload.id))
      .bind(2, workload.namespace_name)
      .bind(3, workload.name)
      .bind(4, workload.team)
      .bind(5, workload_phase_name(workload.phase))
      .bind(6, workload.document)
      .bind(10, as_sql(audit_floor_));
  if (riding != nullptr) {
    put.bind(7, as_sql(riding->sequence)).bind(8, riding->audit_id).bind(9, riding->document);
  } else {
    put.bind_null(7).bind_null(8).bind_null(9);
  }
  return put.execute();
}

Status SqliteBatchWriter::put_workloads(const WriteBatch& batch) {
  std::optional<WorkloadId> max_id;
  rode_.clear();
  const bool may_ride = !batch.append_audit_outbox.empty();
  for (const WorkloadRecord& workload : batch.put_workloads) {
    const AuditOutboxRecord* riding = may_ride ? riding_row(batch, workload.id) : nullptr;
    // A row the stored one holds still goes on, in the table. A workload
    // above the bound has no stored row (a submit's create): no statement.
    if (riding != nullptr && workload.id.value() <= workload_id_bound_) {
      ALLOT_RETURN_IF_ERROR(move_riding_audit_row(workload.id));
    }
    workload_id_bound_ = std::max(workload_id_bound_, workload.id.value());
    Status status = put_workload(workload, riding);
    // The id is the conflict target, so the only key left to violate is the name.
    if (status.code() == ErrorCode::kAlreadyExists) return workload_name_taken(workload);
    ALLOT_RETURN_IF_ERROR(status);
    if (!max_id || *max_id < workload.id) max_id = workload.id;
  }
  if (!max_id) return {};
  return statements_.raise_max_id.bind(1, as_sql(*max_id)).execute();
}

Status SqliteBatchWriter::append_events(const WriteBatch& batch) {
  for (const EventRecord& event : batch.events) {
    SqliteStatement& append = statements_.append_event;
    ALLOT_RETURN_IF_ERROR(append.bind(1, as_sql(event.workload_id))
                              .bind(2, event.at_ms)
                              .bind(3, event.type)
                              .bind(4, event.reason)
                              .bind(5, event.message)
                              .execute());
  }
  return {};
}

namespace {

// Binds `a` as the row whose first parameter is `first`.
void bind_allocation_row(SqliteStatement& put, int first, const AllocationRecord& a) {
  put.bind(first, as_sql(a.workload_id)).bind(first + 1, a.start_ms);
  if (a.end_ms) {
    put.bind(first + 2, *a.end_ms);
  } else {
    put.bind_null(first + 2);
  }
  put.bind(first + 3, a.team).bind(first + 4, a.user);
  put.bind(first + 5, a.workload_name).bind(first + 6, a.flavor);
  put.bind(first + 7, a.own.gpu()).bind(first + 8, a.own.cpu_millis());
  put.bind(first + 9, a.own.memory_bytes()).bind(first + 10, a.borrowed.gpu());
  put.bind(first + 11, a.borrowed.cpu_millis()).bind(first + 12, a.borrowed.memory_bytes());
}

}  // namespace

Status SqliteBatchWriter::put_allocations(const WriteBatch& batch) {
  const std::vector<AllocationRecord>& all = batch.put_allocations;
  size_t next = 0;
  for (; all.size() - next >= allocations_per_insert_; next += allocations_per_insert_) {
    SqliteStatement& put = statements_.put_allocations;
    for (size_t row = 0; row < allocations_per_insert_; ++row) {
      bind_allocation_row(put, static_cast<int>(row) * kAllocationColumns + 1, all[next + row]);
    }
    ALLOT_RETURN_IF_ERROR(put.execute());
  }
  for (; next < all.size(); ++next) {
    bind_allocation_row(statements_.put_allocation, 1, all[next]);
    ALLOT_RETURN_IF_ERROR(statements_.put_allocation.execute());
  }
  return {};
}

Status SqliteBatchWriter::put_gpu_utilization(const WriteBatch& batch) {
  for (const GpuUtilizationRecord& u : batch.put_gpu_utilization) {
    SqliteStatement& put = statements_.put_utilization;
    put.bind(1, as_sql(u.workload_id)).bind(2, u.gpu).bind(3, u.start_ms).bind(4, u.end_ms);
    ALLOT_RETURN_IF_ERROR(put.bind(5, u.utilization_ppm).execute());
  }
  return {};
}

Status SqliteBatchWriter::apply_audit_outbox(const WriteBatch& batch) {
  if (const uint64_t through = batch.delete_audit_outbox_through; through != 0) {
    ALLOT_RETURN_IF_ERROR(statements_.delete_audit_outbox.bind(1, as_sql(through)).execute());
    ALLOT_RETURN_IF_ERROR(statements_.raise_audit_floor.bind(1, as_sql(through)).execute());
    audit_floor_ = std::max(audit_floor_, through);  // set back if the batch is undone
  }
  for (size_t i = 0; i < batch.append_audit_outbox.size(); ++i) {
    if (std::find(rode_.begin(), rode_.end(), i) != rode_.end()) continue;  // in its workload
    const AuditOutboxRecord& row = batch.append_audit_outbox[i];
    SqliteStatement& append = statements_.append_audit_outbox;
    ALLOT_RETURN_IF_ERROR(
        append.bind(1, as_sql(row.sequence)).bind(2, row.audit_id).bind(3, row.document).execute());
  }
  return {};
}

}  // namespace allot
