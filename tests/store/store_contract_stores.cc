// The contract suite (store_contract_test.cc) for the embedded stores:
// MemoryStore, and SqliteStore on a real file in a fresh directory per test.
#include <memory>
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "store/memory_store.h"
#include "store/sqlite/sqlite_store.h"
#include "store/store_contract.h"

namespace allot::store_test {
namespace {

Result<std::unique_ptr<Store>> open_memory(const std::string& /*file*/) {
  return std::unique_ptr<Store>(std::make_unique<MemoryStore>());
}

Result<std::unique_ptr<Store>> open_sqlite(const std::string& file) {
  ALLOT_ASSIGN_OR_RETURN(std::unique_ptr<SqliteStore> store, SqliteStore::open(file));
  return std::unique_ptr<Store>(std::move(store));
}

INSTANTIATE_TEST_SUITE_P(AllStores, StoreContract,
                         ::testing::Values(StoreFactory{"Memory", open_memory},
                                           StoreFactory{"Sqlite", open_sqlite}),
                         [](const ::testing::TestParamInfo<StoreFactory>& param) {
                           return param.param.name;
                         });

}  // namespace
}  // namespace allot::store_test
