// SqliteStore: the embedded default Store (DESIGN.md section 10), one SQLite
// database file in WAL mode.
//
// Contract (beyond store.h):
// - open() creates or migrates the schema (sqlite_schema.h) in one
//   transaction; a database newer than this code, a file that is not a
//   database or an unreadable path is an error, never an abort.
// - Durability: synchronous=FULL, so a COMMIT fsyncs the WAL before commit()
//   returns. The writer's connection keeps its temporary files (a batch's
//   savepoint journal) in memory (configure_sqlite_writer()).
// - Group commit (store/group_committer.h): commit() queues its batch and
//   waits (queue_commit() queues it and returns its future). One writer thread takes every queued
//   batch and runs them in one transaction (BEGIN IMMEDIATE ... COMMIT), each inside its own
//   SAVEPOINT: a failing batch is rolled back alone and only its caller sees its error. Callers are
//   woken after COMMIT returned, each through its own promise: no herd of callers on one mutex.
//   When the transaction cannot start or COMMIT fails, every batch of it that had not failed on its
//   own fails with kUnavailable.
// - Reads (load, events) go through a second connection and see committed
//   data only; in WAL mode they do not wait for the writer.
// - The destructor commits what is queued and joins the writer; callers
//   still returning from commit() no longer touch the store. REQUIRES: no
//   commit() starts once the destructor has begun.
// Thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/status.h"
#include "model/ids.h"
#include "store/group_committer.h"
#include "store/sqlite/sqlite_batch_writer.h"
#include "store/sqlite/sqlite_connection.h"
#include "store/sqlite/sqlite_state_reader.h"
#include "store/store.h"

namespace allot {

struct SqliteStoreOptions {
  // How long a connection waits for a lock held by another process before
  // the operation fails with kUnavailable.
  int busy_timeout_ms = 5000;
};

// The writer connection's settings, applied by open() before the schema:
// journal_mode=WAL (kUnavailable if the file cannot use it),
// synchronous=FULL, temp_store=MEMORY.
Status configure_sqlite_writer(SqliteConnection& db);

class SqliteStore final : public Store {
 public:
  // `path` is the database file; its directory must exist. ":memory:" is
  // refused (use MemoryStore): the store needs two connections to one file.
  static Result<std::unique_ptr<SqliteStore>> open(const std::string& path);
  static Result<std::unique_ptr<SqliteStore>> open(const std::string& path,
                                                   const SqliteStoreOptions& options);
  ~SqliteStore() override;
  SqliteStore(const SqliteStore&) = delete;
  SqliteStore& operator=(const SqliteStore&) = delete;

  Result<StoredState> load() override;
  Status commit(WriteBatch batch) override;
  std::future<Status> queue_commit(WriteBatch batch) override;
  Result<std::vector<EventRecord>> events(WorkloadId workload_id, uint64_t after = 0) override;
  Result<std::vector<AllocationRecord>> allocations(int64_t from_ms, int64_t to_ms) override;
  Result<std::vector<GpuUtilizationRecord>> gpu_utilization(int64_t from_ms,
                                                            int64_t to_ms) override;

  // Transactions the writer has committed since open(). Lower than the number
  // of batches committed when batches shared transactions.
  [[nodiscard]] uint64_t transactions_committed() const;

  // For tests of group commit, which must not depend on timing: while paused
  // the writer leaves batches queued; wait_until_queued() returns once at
  // least `count` batches wait in the queue.
  void pause_writer();
  void resume_writer();
  void wait_until_queued(size_t count);

 private:
  SqliteStore(SqliteBatchWriter writer, SqliteStateReader reader);

  std::mutex reader_mutex_;
  SqliteStateReader reader_;  // guarded by reader_mutex_

  SqliteBatchWriter writer_;  // the committer's writer thread's only

  GroupCommitter committer_;  // last: its thread uses writer_
};

}  // namespace allot
