// PgBatchWriter: writes WriteBatches into one PostgreSQL transaction, each
// batch inside its own SAVEPOINT, fenced by the leadership term.
//
// Contract:
// - begin() opens a transaction and checks, holding a share lock on the
//   allot_leader row until the transaction ends, that the term is still
//   `term`; when another allotd raised it, begin() fails with
//   kFailedPrecondition and nothing is written (a deposed leader cannot
//   commit). A broken connection is re-established first.
// - apply() writes one batch (store.h's order: object deletes, object puts,
//   workload deletes, workload puts, events); a batch that fails is rolled
//   back to its savepoint alone and its error returned.
// - commit() makes the transaction durable (synchronous_commit as the server
//   has it: on by default, the WAL is flushed before COMMIT returns).
// Thread-compatible: the store's writer thread only.
#pragma once

#include <cstdint>

#include "base/result.h"
#include "base/status.h"
#include "store/postgres/pg_connection.h"
#include "store/store.h"

namespace allot {

class PgBatchWriter {
 public:
  PgBatchWriter(PgConnection db, int64_t term) : db_(std::move(db)), term_(term) {}

  Status begin();
  Status apply(const WriteBatch& batch);
  Status commit();
  void rollback();
  // False once an error left the transaction unable to commit (a batch whose
  // savepoint could not be undone, a lost connection).
  [[nodiscard]] bool in_transaction() const { return db_.in_usable_transaction(); }

 private:
  Status check_term();
  Status apply_parts(const WriteBatch& batch);
  Status put_workloads(const WriteBatch& batch);
  Status put_allocations(const WriteBatch& batch);
  Status put_gpu_utilization(const WriteBatch& batch);
  Status apply_audit_outbox(const WriteBatch& batch);

  PgConnection db_;
  int64_t term_;
};

}  // namespace allot
