// SqliteBatchWriter: writes WriteBatches into SqliteStore's tables with
// statements prepared once, inside a transaction its caller opens.
//
// Contract: begin(); apply() any number of batches; commit() (or rollback()).
// apply() runs one batch inside its own SAVEPOINT: a batch that fails is
// rolled back alone and the transaction stays usable for the others, unless
// SQLite ended the transaction itself (an I/O error, a full disk): then
// in_transaction() is false and every batch applied so far is gone.
// The parts of a batch apply in store.h's order, except the allocation puts,
// which touch nothing the other parts do: they go first (the .cc says why).
// Thread-compatible: SqliteStore's writer thread is its only user.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "base/result.h"
#include "base/status.h"
#include "store/sqlite/sqlite_connection.h"
#include "store/sqlite/sqlite_statement.h"
#include "store/store.h"

namespace allot {

class SqliteBatchWriter {
 public:
  // Takes the connection the writes go through. REQUIRES: its schema is migrated.
  static Result<SqliteBatchWriter> create(SqliteConnection db);

  // BEGIN IMMEDIATE: takes the write lock (waiting up to the busy timeout).
  Status begin();
  // COMMIT: durable on return when the database runs synchronous=FULL.
  Status commit();
  // Ends the transaction, if any, dropping its changes. Best effort.
  void rollback();
  [[nodiscard]] bool in_transaction() const { return db_.in_transaction(); }

  // REQUIRES: in_transaction(); validate_batch(batch) passed.
  Status apply(const WriteBatch& batch);

 private:
  struct Statements;
  SqliteBatchWriter(SqliteConnection db, Statements statements, size_t allocations_per_insert,
                    uint64_t audit_floor, uint64_t workload_id_bound);

  Status apply_parts(const WriteBatch& batch);
  Status delete_objects(const WriteBatch& batch);
  Status put_objects(const WriteBatch& batch);
  Status delete_workloads(const WriteBatch& batch);
  Status put_workloads(const WriteBatch& batch);
  // The audit outbox row of `batch` that rides in workload `id`'s row (the
  // first one naming it above the floors), noted in rode_; null: none.
  const AuditOutboxRecord* riding_row(const WriteBatch& batch, WorkloadId id);
  Status put_workload(const WorkloadRecord& workload, const AuditOutboxRecord* riding);
  Status move_riding_audit_row(WorkloadId id);
  Status append_events(const WriteBatch& batch);
  Status put_allocations(const WriteBatch& batch);
  Status put_gpu_utilization(const WriteBatch& batch);
  Status apply_audit_outbox(const WriteBatch& batch);

  SqliteConnection db_;
  struct Statements {
    SqliteStatement begin;
    SqliteStatement commit;
    SqliteStatement rollback;
    SqliteStatement savepoint;
    SqliteStatement release;
    SqliteStatement rollback_to;
    SqliteStatement delete_object;
    SqliteStatement put_object;
    SqliteStatement delete_events;
    SqliteStatement delete_workload;
    SqliteStatement put_workload;
    SqliteStatement raise_max_id;
    SqliteStatement append_event;
    SqliteStatement put_allocation;
    SqliteStatement put_allocations;  // allocations_per_insert_ rows
    SqliteStatement put_utilization;
    SqliteStatement delete_audit_outbox;  // every row with a sequence <= ?1
    SqliteStatement append_audit_outbox;
    SqliteStatement move_riding_audit_row;  // workload ?1's riding row above ?2, into the table
    SqliteStatement raise_audit_floor;
  } statements_;
  size_t allocations_per_insert_;  // the rows of put_allocations (the .cc)
  // The highest ranged delete of the audit outbox: a riding row at or below
  // it is deleted (store.h; the schema's version 6). It follows the
  // database: a batch undone, or a transaction rolled back, sets it back.
  uint64_t audit_floor_ = 0;
  uint64_t floor_at_begin_ = 0;  // audit_floor_ when the transaction began
  // No stored workload has a higher id: the highest at the start and every
  // id put since (a put undone leaves it higher, which only costs a
  // statement that finds nothing).
  uint64_t workload_id_bound_ = 0;
  // The indexes of the batch's outbox rows that rode in a workload's row.
  std::vector<size_t> rode_;
};

}  // namespace allot
