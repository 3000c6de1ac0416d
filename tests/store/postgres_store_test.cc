// PostgresStore and PgLeaderLock beyond the shared contract: leader election,
// fencing of a deposed leader, a lost connection, schema versions, group
// commit and the conninfo's password kept out of messages. Each test has a
// fresh database on the real PostgreSQL server that ctest starts.
#include "store/postgres/postgres_store.h"

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "store/postgres/pg_connection.h"
#include "store/postgres/pg_leader_lock.h"
#include "store/postgres/pg_schema.h"
#include "store/postgres_test_database.h"
#include "store/store_records.h"

namespace allot {
namespace {

using store_test::PostgresTestDatabase;
using store_test::put_objects;
using store_test::put_workloads;
using store_test::workload_record;

constexpr std::chrono::milliseconds kPoll(5);

class PostgresStoreTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<PostgresTestDatabase> database = PostgresTestDatabase::create();
    ASSERT_TRUE(database.ok()) << database.status().to_string();
    database_.emplace(std::move(database).value());
  }

  const std::string& conninfo() const { return database_->conninfo(); }

  PgLeaderLock lead(
      const std::string& holder, const std::function<bool()>& should_stop = [] { return true; }) {
    Result<PgLeaderLock> lock = PgLeaderLock::acquire(conninfo(), holder, kPoll, should_stop);
    EXPECT_TRUE(lock.ok()) << lock.status().to_string();
    return std::move(lock).value();
  }

  std::unique_ptr<PostgresStore> open(int64_t term) {
    Result<std::unique_ptr<PostgresStore>> store = PostgresStore::open(conninfo(), term);
    EXPECT_TRUE(store.ok()) << store.status().to_string();
    return store.ok() ? std::move(store).value() : nullptr;
  }

  PgConnection admin() {
    Result<PgConnection> db = PgConnection::connect(conninfo());
    EXPECT_TRUE(db.ok()) << db.status().to_string();
    return std::move(db).value();
  }

  // Ends every other session on this database holding the leadership lock,
  // as a network partition or a server-side timeout would. Only this test's
  // database: other tests share the server (advisory locks are listed for
  // every database in pg_locks). The timeout makes the call wait until the
  // sessions are gone: a bare pg_terminate_backend only signals them.
  void terminate_lock_holder() {
    PgConnection db = admin();
    Status status = db.execute(
        "SELECT pg_terminate_backend(pid, 10000) FROM pg_locks "
        "WHERE locktype = 'advisory' AND granted AND pid <> pg_backend_pid() AND database = "
        "(SELECT oid FROM pg_database WHERE datname = current_database())");
    ASSERT_TRUE(status.ok()) << status.to_string();
  }

  std::optional<PostgresTestDatabase> database_;
};

TEST_F(PostgresStoreTest, TheFirstLeaderGetsTermOneAndIsRecorded) {
  PgLeaderLock lock = lead("allotd-a");

  EXPECT_EQ(lock.term(), 1);
  EXPECT_TRUE(lock.check().ok());
  Result<std::string> holder = PgLeaderLock::holder(conninfo());
  ASSERT_TRUE(holder.ok()) << holder.status().to_string();
  EXPECT_EQ(*holder, "allotd-a");
}

TEST_F(PostgresStoreTest, AStandbyWaitsWhileTheLeaderLivesAndTakesOverWhenItGoes) {
  std::optional<PgLeaderLock> leader = lead("allotd-a");
  int polls = 0;
  // The standby polls; after three refused polls the leader goes.
  Result<PgLeaderLock> standby = PgLeaderLock::acquire(conninfo(), "allotd-b", kPoll, [&] {
    if (++polls == 3) leader.reset();
    return polls > 100;
  });

  ASSERT_TRUE(standby.ok()) << standby.status().to_string();
  EXPECT_GE(polls, 3);
  EXPECT_EQ(standby->term(), 2);
  EXPECT_EQ(*PgLeaderLock::holder(conninfo()), "allotd-b");
}

TEST_F(PostgresStoreTest, AStandbyThatIsStoppedWhileWaitingSaysSo) {
  PgLeaderLock leader = lead("allotd-a");
  int polls = 0;

  Result<PgLeaderLock> standby =
      PgLeaderLock::acquire(conninfo(), "allotd-b", kPoll, [&] { return ++polls == 2; });

  EXPECT_EQ(standby.status().code(), ErrorCode::kUnavailable);
  EXPECT_TRUE(leader.check().ok());
}

TEST_F(PostgresStoreTest, ADeposedLeaderCannotCommitAndItsBatchIsNotStored) {
  PgLeaderLock first = lead("allotd-a");
  std::unique_ptr<PostgresStore> old_leader = open(first.term());
  ASSERT_TRUE(old_leader->commit(put_objects({{"Team", "before", "1"}})).ok());

  // A partition: the first leader's lock session ends, its store's does not.
  terminate_lock_holder();
  EXPECT_FALSE(first.check().ok());
  PgLeaderLock second = lead("allotd-b");
  std::unique_ptr<PostgresStore> new_leader = open(second.term());

  const Status fenced = old_leader->commit(put_objects({{"Team", "split-brain", "2"}}));
  EXPECT_EQ(fenced.code(), ErrorCode::kUnavailable) << fenced.to_string();
  EXPECT_NE(fenced.message().find("no longer the leader"), std::string::npos) << fenced.message();
  ASSERT_TRUE(new_leader->commit(put_objects({{"Team", "after", "3"}})).ok());
  const std::vector<ObjectRecord> expected = {{"Team", "after", "3"}, {"Team", "before", "1"}};
  EXPECT_EQ(new_leader->load()->objects, expected);
}

TEST_F(PostgresStoreTest, ALeaderWhoseLockSessionEndedKnowsItLostTheLead) {
  PgLeaderLock lock = lead("allotd-a");

  terminate_lock_holder();

  const Status checked = lock.check();
  EXPECT_EQ(checked.code(), ErrorCode::kFailedPrecondition) << checked.to_string();
}

TEST_F(PostgresStoreTest, TheStoreReconnectsWhenItsSessionsWereEnded) {
  PgLeaderLock lock = lead("allotd-a");
  std::unique_ptr<PostgresStore> store = open(lock.term());
  ASSERT_TRUE(store->commit(put_workloads({workload_record(WorkloadId(1), "nlp", "a")})).ok());
  PgConnection db = admin();
  ASSERT_TRUE(db.execute("SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity "
                         "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                         "AND pid NOT IN (SELECT pid FROM pg_locks WHERE locktype = 'advisory')")
                  .ok());

  const Status status = store->commit(put_workloads({workload_record(WorkloadId(2), "nlp", "b")}));

  ASSERT_TRUE(status.ok()) << status.to_string();
  Result<StoredState> state = store->load();
  ASSERT_TRUE(state.ok()) << state.status().to_string();
  EXPECT_EQ(state->workloads.size(), 2u);
}

TEST_F(PostgresStoreTest, BatchesQueuedTogetherShareATransactionAndFailAlone) {
  PgLeaderLock lock = lead("allotd-a");
  std::unique_ptr<PostgresStore> store = open(lock.term());
  ASSERT_TRUE(store->commit(put_workloads({workload_record(WorkloadId(1), "nlp", "taken")})).ok());
  const uint64_t before = store->transactions_committed();
  store->pause_writer();
  Status good_a;
  Status clash;
  Status good_b;
  std::thread a([&] { good_a = store->commit(put_objects({{"Team", "a", "1"}})); });
  store->wait_until_queued(1);
  std::thread b([&] {
    clash = store->commit(put_workloads({workload_record(WorkloadId(2), "nlp", "taken")}));
  });
  store->wait_until_queued(2);
  std::thread c([&] { good_b = store->commit(put_objects({{"Team", "b", "2"}})); });
  store->wait_until_queued(3);
  store->resume_writer();
  a.join();
  b.join();
  c.join();

  EXPECT_TRUE(good_a.ok()) << good_a.to_string();
  EXPECT_EQ(clash.code(), ErrorCode::kAlreadyExists) << clash.to_string();
  EXPECT_TRUE(good_b.ok()) << good_b.to_string();
  EXPECT_EQ(store->transactions_committed(), before + 1);
  EXPECT_EQ(store->load()->objects.size(), 2u);
}

TEST_F(PostgresStoreTest, ANewerSchemaIsRefusedAndLeftUntouched) {
  PgConnection db = admin();
  ASSERT_TRUE(migrate_postgres_schema(db).ok());
  ASSERT_TRUE(migrate_postgres_schema(db).ok());  // a second run changes nothing
  const std::string newer = std::to_string(latest_postgres_schema_version() + 1);
  ASSERT_TRUE(db.execute("INSERT INTO allot_schema (version) VALUES (" + newer + ")").ok());

  Result<std::unique_ptr<PostgresStore>> store = PostgresStore::open(conninfo(), 1);

  EXPECT_EQ(store.status().code(), ErrorCode::kFailedPrecondition) << store.status().to_string();
  EXPECT_NE(store.status().message().find("newer"), std::string::npos);
}

TEST(PostgresConnection, AnUnreachableServerIsUnavailableAndThePasswordIsNotShown) {
  Result<PgConnection> db =
      PgConnection::connect("postgresql://allot:s3cret-pa55@127.0.0.1:1/allot?connect_timeout=2");

  ASSERT_EQ(db.status().code(), ErrorCode::kUnavailable);
  EXPECT_EQ(db.status().to_string().find("s3cret-pa55"), std::string::npos)
      << db.status().to_string();
  EXPECT_EQ(redacted_conninfo("host=h password=s3cret-pa55 user=u").find("s3cret"),
            std::string::npos);
}

TEST(PostgresConnection, AStringThatIsNotAConninfoIsInvalid) {
  EXPECT_EQ(PgConnection::connect("postgresql://[bad").status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(PgConnection::connect("no-equals-sign").status().code(), ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace allot
