// LeadingPostgresStore: a PostgresStore as an allotd that leads uses it,
// with its leader lock (and, for a test that made one, its test database)
// held as long as the store lives. Every Store call goes to the PostgresStore
// as it is, queue_commit() included.
//
// Contract: destroyed in the order store, lock, database: the store's
// connections close before the lock's, and the database is dropped last.
// Thread-safe as PostgresStore is.
#pragma once

#include <future>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "store/postgres/pg_leader_lock.h"
#include "store/postgres/postgres_store.h"
#include "store/postgres_test_database.h"
#include "store/store.h"

namespace allot::store_test {

class LeadingPostgresStore final : public Store {
 public:
  LeadingPostgresStore(PgLeaderLock lock, std::unique_ptr<PostgresStore> store,
                       std::optional<PostgresTestDatabase> database = std::nullopt)
      : database_(std::move(database)), lock_(std::move(lock)), store_(std::move(store)) {}

  Result<StoredState> load() override { return store_->load(); }
  Status commit(WriteBatch batch) override { return store_->commit(std::move(batch)); }
  std::future<Status> queue_commit(WriteBatch batch) override {
    return store_->queue_commit(std::move(batch));
  }
  Result<std::vector<EventRecord>> events(WorkloadId workload_id, uint64_t after) override {
    return store_->events(workload_id, after);
  }
  Result<std::vector<AllocationRecord>> allocations(int64_t from_ms, int64_t to_ms) override {
    return store_->allocations(from_ms, to_ms);
  }
  Result<std::vector<GpuUtilizationRecord>> gpu_utilization(int64_t from_ms,
                                                            int64_t to_ms) override {
    return store_->gpu_utilization(from_ms, to_ms);
  }

 private:
  std::optional<PostgresTestDatabase> database_;
  PgLeaderLock lock_;
  std::unique_ptr<PostgresStore> store_;
};

}  // namespace allot::store_test
