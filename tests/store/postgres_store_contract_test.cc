// The contract suite (store_contract_test.cc) for PostgresStore: a fresh
// database per test on the real PostgreSQL server that ctest starts, the
// store opened as the leader of that database.
#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "store/postgres/pg_leader_lock.h"
#include "store/postgres/postgres_store.h"
#include "store/postgres_test_database.h"
#include "store/store_contract.h"

namespace allot::store_test {
namespace {

// The store with what it needs: its database and the leadership of it.
// Destroyed store first, then the lock, then the database.
class LeadingPostgresStore final : public Store {
 public:
  LeadingPostgresStore(PostgresTestDatabase database, PgLeaderLock lock,
                       std::unique_ptr<PostgresStore> store)
      : database_(std::move(database)), lock_(std::move(lock)), store_(std::move(store)) {}

  Result<StoredState> load() override { return store_->load(); }
  Status commit(WriteBatch batch) override { return store_->commit(std::move(batch)); }
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
  PostgresTestDatabase database_;
  PgLeaderLock lock_;
  std::unique_ptr<PostgresStore> store_;
};

Result<std::unique_ptr<Store>> open_postgres(const std::string& /*file*/) {
  ALLOT_ASSIGN_OR_RETURN(PostgresTestDatabase database, PostgresTestDatabase::create());
  ALLOT_ASSIGN_OR_RETURN(PgLeaderLock lock,
                         PgLeaderLock::acquire(database.conninfo(), "contract",
                                               std::chrono::milliseconds(10), [] { return true; }));
  ALLOT_ASSIGN_OR_RETURN(std::unique_ptr<PostgresStore> store,
                         PostgresStore::open(database.conninfo(), lock.term()));
  return std::unique_ptr<Store>(
      new LeadingPostgresStore(std::move(database), std::move(lock), std::move(store)));
}

INSTANTIATE_TEST_SUITE_P(Postgres, StoreContract,
                         ::testing::Values(StoreFactory{"Postgres", open_postgres}),
                         [](const ::testing::TestParamInfo<StoreFactory>& param) {
                           return param.param.name;
                         });

}  // namespace
}  // namespace allot::store_test
