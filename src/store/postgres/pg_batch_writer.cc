#include "store/postgres/pg_batch_writer.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "model/ids.h"
#include "store/batch_rules.h"

namespace allot {
namespace {

// An upsert on the id: a (namespace, name) that belongs to another id stays a
// unique violation (kAlreadyExists), never a replacement.
constexpr std::string_view kPutWorkload =
    "INSERT INTO allot_workloads (id, namespace, name, team, phase, document) "
    "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO UPDATE SET "
    "namespace = excluded.namespace, name = excluded.name, team = excluded.team, "
    "phase = excluded.phase, document = excluded.document";

constexpr std::string_view kPutObject =
    "INSERT INTO allot_objects (kind, name, document) VALUES ($1, $2, $3) "
    "ON CONFLICT (kind, name) DO UPDATE SET document = excluded.document";

constexpr std::string_view kAppendEvent =
    "INSERT INTO allot_events (workload_id, at_ms, type, reason, message) "
    "VALUES ($1, $2, $3, $4, $5)";

// $3 is the end, taken only when $14 is 0 (an open interval's end is NULL).
constexpr std::string_view kPutAllocation =
    "INSERT INTO allot_allocations (workload_id, start_ms, end_ms, team, submitted_by, "
    "workload_name, flavor, own_gpu, own_cpu_millis, own_memory_bytes, borrowed_gpu, "
    "borrowed_cpu_millis, borrowed_memory_bytes) VALUES ($1, $2, CASE WHEN $14 = 1 THEN NULL "
    "ELSE $3 END, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) "
    "ON CONFLICT (workload_id, start_ms) DO UPDATE SET end_ms = excluded.end_ms, "
    "team = excluded.team, submitted_by = excluded.submitted_by, "
    "workload_name = excluded.workload_name, flavor = excluded.flavor, "
    "own_gpu = excluded.own_gpu, own_cpu_millis = excluded.own_cpu_millis, "
    "own_memory_bytes = excluded.own_memory_bytes, borrowed_gpu = excluded.borrowed_gpu, "
    "borrowed_cpu_millis = excluded.borrowed_cpu_millis, "
    "borrowed_memory_bytes = excluded.borrowed_memory_bytes";

constexpr std::string_view kPutGpuUtilization =
    "INSERT INTO allot_gpu_utilization (workload_id, gpu, start_ms, end_ms, utilization_ppm) "
    "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (workload_id, gpu, start_ms) DO UPDATE SET "
    "end_ms = excluded.end_ms, utilization_ppm = excluded.utilization_ppm";

constexpr std::string_view kAppendAuditOutbox =
    "INSERT INTO allot_audit_outbox (sequence, audit_id, document) VALUES ($1, $2, $3) "
    "ON CONFLICT (sequence) DO UPDATE SET audit_id = excluded.audit_id, "
    "document = excluded.document";

// Ids are in 1..INT64_MAX (validate_batch), so the cast keeps them.
int64_t as_sql(WorkloadId id) { return static_cast<int64_t>(id.value()); }

}  // namespace

Status PgBatchWriter::begin() {
  ALLOT_RETURN_IF_ERROR(db_.reset_if_broken());
  Status begun = db_.execute("BEGIN");
  if (!begun.ok() && db_.broken()) {
    // The session was ended (a restarted server, a terminated backend):
    // nothing was written yet, so one new connection is tried.
    ALLOT_RETURN_IF_ERROR(db_.reset_if_broken());
    begun = db_.execute("BEGIN");
  }
  ALLOT_RETURN_IF_ERROR(begun);
  Status checked = check_term();
  if (!checked.ok()) rollback();
  return checked;
}

Status PgBatchWriter::check_term() {
  ALLOT_ASSIGN_OR_RETURN(PgResult result,
                         db_.query("SELECT term FROM allot_leader WHERE id = 1 FOR SHARE"));
  if (result.rows() != 1) return Status(ErrorCode::kInternal, "the store has no allot_leader row");
  ALLOT_ASSIGN_OR_RETURN(int64_t term, result.int64(0, 0));
  if (term == term_) return {};
  return failed_precondition(
      "this allotd is no longer the leader: another instance took over (term " +
      std::to_string(term) + ", this one's " + std::to_string(term_) + ")");
}

Status PgBatchWriter::commit() { return db_.execute("COMMIT"); }

void PgBatchWriter::rollback() { (void)db_.execute("ROLLBACK"); }

Status PgBatchWriter::apply(const WriteBatch& batch) {
  ALLOT_RETURN_IF_ERROR(db_.execute("SAVEPOINT batch"));
  Status status = apply_parts(batch);
  if (status.ok()) return db_.execute("RELEASE SAVEPOINT batch");
  // Undo this batch only; the transaction stays usable for the others.
  Status undone = db_.execute("ROLLBACK TO SAVEPOINT batch");
  if (undone.ok()) undone = db_.execute("RELEASE SAVEPOINT batch");
  if (!undone.ok()) return undone;
  return status;
}

Status PgBatchWriter::apply_parts(const WriteBatch& batch) {
  for (const ObjectKey& key : batch.delete_objects) {
    ALLOT_RETURN_IF_ERROR(db_.query("DELETE FROM allot_objects WHERE kind = $1 AND name = $2",
                                    PgParams().text(key.kind).text(key.name))
                              .status());
  }
  for (const ObjectRecord& object : batch.put_objects) {
    ALLOT_RETURN_IF_ERROR(
        db_.query(kPutObject, PgParams().text(object.kind).text(object.name).bytes(object.document))
            .status());
  }
  for (WorkloadId id : batch.delete_workloads) {
    ALLOT_RETURN_IF_ERROR(
        db_.query("DELETE FROM allot_events WHERE workload_id = $1", PgParams().int64(as_sql(id)))
            .status());
    ALLOT_RETURN_IF_ERROR(
        db_.query("DELETE FROM allot_workloads WHERE id = $1", PgParams().int64(as_sql(id)))
            .status());
  }
  ALLOT_RETURN_IF_ERROR(put_workloads(batch));
  for (const EventRecord& event : batch.events) {
    PgParams params;
    params.int64(as_sql(event.workload_id))
        .int64(event.at_ms)
        .text(event.type)
        .bytes(event.reason)
        .bytes(event.message);
    ALLOT_RETURN_IF_ERROR(db_.query(kAppendEvent, params).status());
  }
  ALLOT_RETURN_IF_ERROR(put_allocations(batch));
  ALLOT_RETURN_IF_ERROR(put_gpu_utilization(batch));
  return apply_audit_outbox(batch);
}

// Sequences are in 1..INT64_MAX (validate_batch), so the casts keep them.
Status PgBatchWriter::apply_audit_outbox(const WriteBatch& batch) {
  if (batch.delete_audit_outbox_through != 0) {
    const auto through = static_cast<int64_t>(batch.delete_audit_outbox_through);
    ALLOT_RETURN_IF_ERROR(
        db_.query("DELETE FROM allot_audit_outbox WHERE sequence <= $1", PgParams().int64(through))
            .status());
    ALLOT_RETURN_IF_ERROR(db_.query("UPDATE allot_meta SET value = greatest(value, $1) "
                                    "WHERE key = 'audit_outbox_floor'",
                                    PgParams().int64(through))
                              .status());
  }
  for (const AuditOutboxRecord& row : batch.append_audit_outbox) {
    PgParams params;
    params.int64(static_cast<int64_t>(row.sequence)).bytes(row.audit_id).bytes(row.document);
    ALLOT_RETURN_IF_ERROR(db_.query(kAppendAuditOutbox, params).status());
  }
  return {};
}

Status PgBatchWriter::put_gpu_utilization(const WriteBatch& batch) {
  for (const GpuUtilizationRecord& u : batch.put_gpu_utilization) {
    PgParams params;
    params.int64(as_sql(u.workload_id)).bytes(u.gpu).int64(u.start_ms).int64(u.end_ms);
    params.int64(u.utilization_ppm);
    ALLOT_RETURN_IF_ERROR(db_.query(kPutGpuUtilization, params).status());
  }
  return {};
}

Status PgBatchWriter::put_allocations(const WriteBatch& batch) {
  for (const AllocationRecord& a : batch.put_allocations) {
    PgParams params;
    params.int64(as_sql(a.workload_id)).int64(a.start_ms).int64(a.end_ms.value_or(0));
    params.text(a.team).bytes(a.user).bytes(a.workload_name).text(a.flavor);
    params.int64(a.own.gpu()).int64(a.own.cpu_millis()).int64(a.own.memory_bytes());
    params.int64(a.borrowed.gpu()).int64(a.borrowed.cpu_millis()).int64(a.borrowed.memory_bytes());
    params.int64(a.end_ms ? 0 : 1);
    ALLOT_RETURN_IF_ERROR(db_.query(kPutAllocation, params).status());
  }
  return {};
}

Status PgBatchWriter::put_workloads(const WriteBatch& batch) {
  std::optional<WorkloadId> max_id;
  for (const WorkloadRecord& workload : batch.put_workloads) {
    PgParams params;
    params.int64(as_sql(workload.id))
        .text(workload.namespace_name)
        .text(workload.name)
        .text(workload.team)
        .text(workload_phase_name(workload.phase))
        .bytes(workload.document);
    const Status status = db_.query(kPutWorkload, params).status();
    // The id is the conflict target, so the only key left to violate is the name.
    if (status.code() == ErrorCode::kAlreadyExists) return workload_name_taken(workload);
    ALLOT_RETURN_IF_ERROR(status);
    if (!max_id || *max_id < workload.id) max_id = workload.id;
  }
  if (!max_id) return {};
  return db_
      .query("UPDATE allot_meta SET value = greatest(value, $1) WHERE key = 'max_workload_id'",
             PgParams().int64(as_sql(*max_id)))
      .status();
}

}  // namespace allot
