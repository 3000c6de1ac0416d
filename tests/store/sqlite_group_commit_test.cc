// Group commit in SqliteStore: batches queued together share one transaction,
// yet each caller gets its own batch's outcome. The writer is paused while
// batches queue up, so that grouping does not depend on timing.
#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "store/raw_database.h"
#include "store/sqlite/sqlite_store.h"
#include "store/store_records.h"
#include "store/temp_directory.h"

namespace allot {
namespace {

using store_test::event_record;
using store_test::put_workloads;
using store_test::RawDatabase;
using store_test::workload_record;

class SqliteGroupCommit : public ::testing::Test {
 protected:
  std::string path() const { return directory_.file("allot.db"); }

  std::unique_ptr<SqliteStore> open_ok(SqliteStoreOptions options = {}) {
    Result<std::unique_ptr<SqliteStore>> store = SqliteStore::open(path(), options);
    EXPECT_TRUE(store.ok()) << store.status().to_string();
    return store.ok() ? std::move(store).value() : nullptr;
  }

  // Commits `batches` from one thread each, queued in this order while the
  // writer is paused, then lets the writer run. Returns each batch's outcome.
  static std::vector<Status> commit_queued_together(SqliteStore& store,
                                                    std::vector<WriteBatch> batches) {
    std::vector<Status> statuses(batches.size());
    std::vector<std::thread> threads;
    store.pause_writer();
    for (size_t i = 0; i < batches.size(); ++i) {
      threads.emplace_back(
          [&store, &statuses, &batches, i] { statuses[i] = store.commit(std::move(batches[i])); });
      store.wait_until_queued(i + 1);
    }
    store.resume_writer();
    for (std::thread& thread : threads) thread.join();
    return statuses;
  }

  static std::vector<WorkloadId> stored_ids(SqliteStore& store) {
    const StoredState state = store.load().value();
    std::vector<WorkloadId> ids;
    ids.reserve(state.workloads.size());
    for (const WorkloadRecord& workload : state.workloads) ids.push_back(workload.id);
    return ids;
  }

  store_test::TempDirectory directory_;
};

TEST_F(SqliteGroupCommit, QueuedBatchesShareOneTransaction) {
  constexpr size_t kCallers = 16;
  std::unique_ptr<SqliteStore> store = open_ok();
  ASSERT_NE(store, nullptr);
  std::vector<WriteBatch> batches;
  for (size_t i = 0; i < kCallers; ++i) {
    batches.push_back(
        put_workloads({workload_record(WorkloadId(i + 1), "nlp", "w-" + std::to_string(i))}));
  }

  const std::vector<Status> statuses = commit_queued_together(*store, std::move(batches));

  for (const Status& status : statuses) EXPECT_TRUE(status.ok()) << status.to_string();
  EXPECT_LT(store->transactions_committed(), kCallers);
  EXPECT_EQ(store->transactions_committed(), 1u);
  EXPECT_EQ(stored_ids(*store).size(), kCallers);
}

TEST_F(SqliteGroupCommit, AFailingBatchIsRolledBackAloneAndOnlyItsCallerSeesTheError) {
  std::unique_ptr<SqliteStore> store = open_ok();
  ASSERT_NE(store, nullptr);
  std::vector<WriteBatch> batches;
  batches.push_back(put_workloads({workload_record(WorkloadId(1), "nlp", "train")}));
  // Takes the name that the batch before it, in the same transaction, gave to id 1.
  batches.push_back(put_workloads({workload_record(WorkloadId(2), "nlp", "other"),
                                   workload_record(WorkloadId(3), "nlp", "train")}));
  batches.back().put_objects = {{"Team", "from-the-failing-batch", ""}};
  batches.back().events = {event_record(WorkloadId(2), "Queued")};
  batches.push_back(put_workloads({workload_record(WorkloadId(4), "nlp", "eval")}));

  const std::vector<Status> statuses = commit_queued_together(*store, std::move(batches));

  EXPECT_TRUE(statuses[0].ok()) << statuses[0].to_string();
  EXPECT_EQ(statuses[1].code(), ErrorCode::kAlreadyExists) << statuses[1].to_string();
  EXPECT_TRUE(statuses[2].ok()) << statuses[2].to_string();
  EXPECT_EQ(store->transactions_committed(), 1u);
  EXPECT_EQ(stored_ids(*store), (std::vector<WorkloadId>{WorkloadId(1), WorkloadId(4)}));
  EXPECT_TRUE(store->load().value().objects.empty());
  EXPECT_EQ(store->load().value().max_workload_id, WorkloadId(4));
  EXPECT_TRUE(store->events(WorkloadId(2)).value().empty());
}

TEST_F(SqliteGroupCommit, TransactionThatCannotStartFailsEveryBatchWithUnavailable) {
  std::unique_ptr<SqliteStore> store = open_ok(SqliteStoreOptions{.busy_timeout_ms = 0});
  ASSERT_NE(store, nullptr);
  RawDatabase other_writer(path());
  ASSERT_TRUE(other_writer.execute("BEGIN IMMEDIATE"));  // holds the write lock
  std::vector<WriteBatch> batches;
  batches.push_back(put_workloads({workload_record(WorkloadId(1), "nlp", "a")}));
  batches.push_back(put_workloads({workload_record(WorkloadId(2), "nlp", "b")}));

  const std::vector<Status> statuses = commit_queued_together(*store, std::move(batches));
  ASSERT_TRUE(other_writer.execute("ROLLBACK"));

  for (const Status& status : statuses) {
    EXPECT_EQ(status.code(), ErrorCode::kUnavailable) << status.to_string();
    EXPECT_NE(status.message().find("no batch of this transaction was stored"), std::string::npos)
        << status.to_string();
  }
  EXPECT_EQ(store->transactions_committed(), 0u);
  EXPECT_TRUE(stored_ids(*store).empty());
  EXPECT_TRUE(store->commit(put_workloads({workload_record(WorkloadId(3), "nlp", "c")})).ok());
  EXPECT_EQ(stored_ids(*store), (std::vector<WorkloadId>{WorkloadId(3)}));
}

TEST_F(SqliteGroupCommit, ClosingTheStoreCommitsWhatIsQueued) {
  std::unique_ptr<SqliteStore> store = open_ok();
  ASSERT_NE(store, nullptr);
  SqliteStore* queued_on = store.get();
  std::vector<Status> statuses(2);
  store->pause_writer();
  std::thread first([&] {
    statuses[0] = queued_on->commit(put_workloads({workload_record(WorkloadId(1), "nlp", "a")}));
  });
  queued_on->wait_until_queued(1);
  std::thread second([&] {
    statuses[1] = queued_on->commit(put_workloads({workload_record(WorkloadId(2), "nlp", "b")}));
  });
  queued_on->wait_until_queued(2);

  store.reset();  // still paused: the destructor must drain the queue anyway
  first.join();
  second.join();

  EXPECT_TRUE(statuses[0].ok()) << statuses[0].to_string();
  EXPECT_TRUE(statuses[1].ok()) << statuses[1].to_string();
  std::unique_ptr<SqliteStore> reopened = open_ok();
  ASSERT_NE(reopened, nullptr);
  EXPECT_EQ(stored_ids(*reopened), (std::vector<WorkloadId>{WorkloadId(1), WorkloadId(2)}));
}

// queue_commit() returns before the batch is stored; its future tells when.
TEST_F(SqliteGroupCommit, AQueuedBatchIsStoredOnlyWhenItsFutureIsReady) {
  std::unique_ptr<SqliteStore> store = open_ok();
  ASSERT_NE(store, nullptr);
  store->pause_writer();
  std::future<Status> stored =
      store->queue_commit(put_workloads({workload_record(WorkloadId(1), "nlp", "train")}));
  store->wait_until_queued(1);

  EXPECT_EQ(stored.wait_for(std::chrono::seconds(0)), std::future_status::timeout);
  EXPECT_TRUE(stored_ids(*store).empty());
  store->resume_writer();
  EXPECT_TRUE(stored.get().ok());
  EXPECT_EQ(stored_ids(*store), (std::vector<WorkloadId>{WorkloadId(1)}));
}

}  // namespace
}  // namespace allot
