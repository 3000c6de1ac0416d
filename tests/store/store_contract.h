// The Store contract suite (store.h): the fixture that every store's
// instantiation shares. The TEST_Ps are in store_contract_test.cc; each test
// executable instantiates them for its stores (store_contract_stores.cc:
// MemoryStore and SqliteStore; postgres_store_contract_test.cc: PostgresStore).
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "base/result.h"
#include "store/store.h"
#include "store/temp_directory.h"

namespace allot::store_test {

struct StoreFactory {
  std::string name;
  std::function<Result<std::unique_ptr<Store>>(const std::string& file)> open;
};

// Names the store in test listings, instead of gtest's dump of the bytes.
inline void PrintTo(const StoreFactory& factory, std::ostream* out) { *out << factory.name; }

class StoreContract : public ::testing::TestWithParam<StoreFactory> {
 protected:
  void SetUp() override {
    Result<std::unique_ptr<Store>> opened = GetParam().open(directory_.file("allot.db"));
    ASSERT_TRUE(opened.ok()) << opened.status().to_string();
    store_ = std::move(opened).value();
  }

  Store& store() { return *store_; }

  StoredState load() {
    Result<StoredState> state = store_->load();
    EXPECT_TRUE(state.ok()) << state.status().to_string();
    return state.ok() ? std::move(state).value() : StoredState();
  }

  std::vector<EventRecord> events(WorkloadId workload_id, uint64_t after = 0) {
    Result<std::vector<EventRecord>> events = store_->events(workload_id, after);
    EXPECT_TRUE(events.ok()) << events.status().to_string();
    return events.ok() ? std::move(events).value() : std::vector<EventRecord>();
  }

  void commit_ok(WriteBatch batch) {
    Status status = store_->commit(std::move(batch));
    ASSERT_TRUE(status.ok()) << status.to_string();
  }

  static std::vector<WorkloadId> ids(const StoredState& state) {
    std::vector<WorkloadId> ids;
    ids.reserve(state.workloads.size());
    for (const WorkloadRecord& workload : state.workloads) ids.push_back(workload.id);
    return ids;
  }

  static std::vector<std::string> reasons(const std::vector<EventRecord>& events) {
    std::vector<std::string> reasons;
    reasons.reserve(events.size());
    for (const EventRecord& event : events) reasons.push_back(event.reason);
    return reasons;
  }

 private:
  TempDirectory directory_;  // outlives the store
  std::unique_ptr<Store> store_;
};

}  // namespace allot::store_test
