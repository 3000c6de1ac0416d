// SqliteStore: the embedded default Store (DESIGN.md section 10), one SQLite
// database file in WAL mode.
//
// Contract (beyond store.h):
// - open() creates or migrates the schema (sqlite_schema.h) in one
//   transaction; a database newer than this code, a file that is not a
//   database or an unreadable path is an error, never an abort.
// - Durability: synchronous=FULL, so a COMMIT fsyncs the WAL before commit()
//   returns.
// - Group commit: commit() queues its batch and waits. One writer thread takes
//   every queued batch and runs them in one transaction (BEGIN IMMEDIATE ...
//   COMMIT), each inside its own SAVEPOINT: a failing batch is rolled back
//   alone and only its caller sees its error. Callers are woken after COMMIT
//   returned, each through its own promise: no herd of callers on one mutex. When the transaction
//   cannot start or COMMIT fails, every batch of it that had not failed on its own fails with
//   kUnavailable.
// - Reads (load, events) go through a second connection and see committed
//   data only; in WAL mode they do not wait for the writer.
// - The destructor commits what is queued and joins the writer; callers
//   still returning from commit() no longer touch the store. REQUIRES: no
//   commit() starts once the destructor has begun.
// Thread-safe.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/result.h"
#include "base/status.h"
#include "model/ids.h"
#include "store/sqlite/sqlite_batch_writer.h"
#include "store/sqlite/sqlite_state_reader.h"
#include "store/store.h"

namespace allot {

struct SqliteStoreOptions {
  // How long a connection waits for a lock held by another process before
  // the operation fails with kUnavailable.
  int busy_timeout_ms = 5000;
};

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
  Result<std::vector<EventRecord>> events(WorkloadId workload_id, uint64_t after = 0) override;

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
  // Lives on its caller's stack until `done` is set. The writer moves the
  // promise out before setting it: the caller may return (destroying this)
  // as soon as it is set.
  struct PendingCommit {
    WriteBatch batch;
    Status status;
    std::promise<void> done;
  };

  SqliteStore(SqliteBatchWriter writer, SqliteStateReader reader);

  void run_writer();
  // Runs one transaction for `group` and sets each batch's status; true when
  // it committed.
  bool commit_group(const std::vector<PendingCommit*>& group);
  static void fail_group(const std::vector<PendingCommit*>& group, const std::string& why,
                         const Status& cause);

  std::mutex reader_mutex_;
  SqliteStateReader reader_;  // guarded by reader_mutex_

  SqliteBatchWriter writer_;  // the writer thread's only

  mutable std::mutex queue_mutex_;         // guards everything below but the thread
  std::condition_variable queue_changed_;  // a batch was queued, or pause/stop changed
  std::deque<PendingCommit*> queue_;       // owned by the callers waiting in commit()
  uint64_t transactions_committed_ = 0;
  bool paused_ = false;
  bool stopping_ = false;

  std::thread writer_thread_;  // last: starts once everything above exists
};

}  // namespace allot
