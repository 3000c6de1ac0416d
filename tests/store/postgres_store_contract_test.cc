// The contract suite (store_contract_test.cc) for PostgresStore: a fresh
// database per test on the real PostgreSQL server that ctest starts, the
// store opened as the leader of that database.
#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "store/leading_postgres_store.h"
#include "store/postgres/pg_leader_lock.h"
#include "store/postgres/postgres_store.h"
#include "store/postgres_test_database.h"
#include "store/store_contract.h"

namespace allot::store_test {
namespace {

Result<std::unique_ptr<Store>> open_postgres(const std::string& /*file*/) {
  ALLOT_ASSIGN_OR_RETURN(PostgresTestDatabase database, PostgresTestDatabase::create());
  ALLOT_ASSIGN_OR_RETURN(PgLeaderLock lock,
                         PgLeaderLock::acquire(database.conninfo(), "contract",
                                               std::chrono::milliseconds(10), [] { return true; }));
  ALLOT_ASSIGN_OR_RETURN(std::unique_ptr<PostgresStore> store,
                         PostgresStore::open(database.conninfo(), lock.term()));
  return std::unique_ptr<Store>(
      new LeadingPostgresStore(std::move(lock), std::move(store), std::move(database)));
}

INSTANTIATE_TEST_SUITE_P(Postgres, StoreContract,
                         ::testing::Values(StoreFactory{"Postgres", open_postgres}),
                         [](const ::testing::TestParamInfo<StoreFactory>& param) {
                           return param.param.name;
                         });

}  // namespace
}  // namespace allot::store_test
