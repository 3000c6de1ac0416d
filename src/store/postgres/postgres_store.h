// PostgresStore: the Store on a PostgreSQL database (libpq), for allotd
// instances that share one database, one leading and the others standing by
// (DESIGN.md section 10).
//
// Contract (beyond store.h):
// - open() connects twice (a writer and a reader connection), migrates the
//   schema (pg_schema.h) and fences every later transaction with
//   `leader_term`, the term PgLeaderLock::acquire() returned: once another
//   allotd raised the term, every commit() fails with kUnavailable whose
//   message says this allotd is no longer the leader, and nothing of it is
//   stored. The caller must hold the leadership before open() (load() must
//   read what the previous leader committed last).
// - Durability: a commit returns after PostgreSQL's COMMIT did, which with
//   the default synchronous_commit=on means its WAL was flushed.
// - Group commit as SqliteStore's (store/group_committer.h; queue_commit()
//   queues a batch and returns its future): one writer
//   thread runs every queued batch in one transaction, each in its own
//   SAVEPOINT, so a failing batch is rolled back alone.
// - Reads (load, events) go through the reader connection; a connection
//   lost to a restarted server is re-established on next use.
// - Documents, event reasons and messages keep every byte (bytea); kinds,
//   names, namespaces and teams are text (UTF-8 without NUL; anything else
//   is kInvalidArgument from PostgreSQL) ordered byte-wise.
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
#include "store/group_committer.h"
#include "store/postgres/pg_batch_writer.h"
#include "store/postgres/pg_state_reader.h"
#include "store/store.h"

namespace allot {

class PostgresStore final : public Store {
 public:
  static Result<std::unique_ptr<PostgresStore>> open(const std::string& conninfo,
                                                     int64_t leader_term);
  ~PostgresStore() override;
  PostgresStore(const PostgresStore&) = delete;
  PostgresStore& operator=(const PostgresStore&) = delete;

  Result<StoredState> load() override;
  Status commit(WriteBatch batch) override;
  std::future<Status> queue_commit(WriteBatch batch) override;
  Result<std::vector<EventRecord>> events(WorkloadId workload_id, uint64_t after = 0) override;
  Result<std::vector<AllocationRecord>> allocations(int64_t from_ms, int64_t to_ms) override;
  Result<std::vector<GpuUtilizationRecord>> gpu_utilization(int64_t from_ms,
                                                            int64_t to_ms) override;

  [[nodiscard]] uint64_t transactions_committed() const;
  // For tests of group commit, as SqliteStore's.
  void pause_writer();
  void resume_writer();
  void wait_until_queued(size_t count);

 private:
  PostgresStore(PgBatchWriter writer, PgStateReader reader);

  std::mutex reader_mutex_;
  PgStateReader reader_;  // guarded by reader_mutex_

  PgBatchWriter writer_;  // the committer's writer thread's only

  GroupCommitter committer_;  // last: its thread uses writer_
};

}  // namespace allot
