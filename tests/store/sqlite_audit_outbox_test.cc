// Where SqliteStore keeps an audit outbox row that names a workload its
// batch puts (store.h): in that workload's row, so that the commit writes no
// page for it alone; and the schema step (version 6) that made room for it.
// The rows' contract, the same for every store, is in store_contract_test.cc.
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "store/raw_database.h"
#include "store/sqlite/sqlite_schema.h"
#include "store/sqlite/sqlite_store.h"
#include "store/store_records.h"
#include "store/temp_directory.h"

namespace allot {
namespace {

using store_test::put_workloads;
using store_test::RawDatabase;
using store_test::workload_record;

AuditOutboxRecord row(uint64_t sequence, uint64_t workload = 0) {
  return {sequence, "id-" + std::to_string(sequence), "[2," + std::to_string(sequence) + "]",
          workload == 0 ? WorkloadId() : WorkloadId(workload)};
}

std::vector<uint64_t> sequences(const StoredState& state) {
  std::vector<uint64_t> found;
  for (const AuditOutboxRecord& loaded : state.audit_outbox) found.push_back(loaded.sequence);
  return found;
}

class SqliteAuditOutboxTest : public ::testing::Test {
 protected:
  std::string path() const { return directory_.file("allot.db"); }

  std::unique_ptr<SqliteStore> open_ok() {
    Result<std::unique_ptr<SqliteStore>> store = SqliteStore::open(path());
    EXPECT_TRUE(store.ok()) << store.status().to_string();
    return store.ok() ? std::move(store).value() : nullptr;
  }

  static void commit_ok(Store& store, WriteBatch batch) {
    const Status status = store.commit(std::move(batch));
    ASSERT_TRUE(status.ok()) << status.to_string();
  }

  store_test::TempDirectory directory_;
};

TEST_F(SqliteAuditOutboxTest, ARowNamingAWorkloadItsBatchPutsRidesInThatWorkloadsRow) {
  {
    std::unique_ptr<SqliteStore> store = open_ok();
    ASSERT_NE(store, nullptr);
    WriteBatch batch = put_workloads({workload_record(WorkloadId(1), "nlp", "a")});
    batch.append_audit_outbox = {row(1, 1), row(2, 9)};  // workload 9 is not put
    commit_ok(*store, std::move(batch));
  }
  {
    RawDatabase raw(path());
    EXPECT_EQ(raw.query_text("SELECT group_concat(sequence) FROM audit_outbox"), "2");
    EXPECT_EQ(raw.query_text("SELECT audit_sequence || ' ' || audit_id || ' ' || audit_document "
                             "FROM workloads WHERE id = 1"),
              "1 id-1 [2,1]");
  }
  std::unique_ptr<SqliteStore> reopened = open_ok();
  ASSERT_NE(reopened, nullptr);
  EXPECT_EQ(reopened->load().value().audit_outbox,
            (std::vector<AuditOutboxRecord>{row(1), row(2)}));
}

// A ranged delete raises the floor; the workload's next put drops the row.
// A deleted workload's row, or one another row takes the place of, goes on
// in the table.
TEST_F(SqliteAuditOutboxTest, ARidingRowLeavesTheWorkloadsRowByTheFloorOrMovesToTheTable) {
  std::unique_ptr<SqliteStore> store = open_ok();
  ASSERT_NE(store, nullptr);
  WriteBatch first = put_workloads(
      {workload_record(WorkloadId(1), "nlp", "a"), workload_record(WorkloadId(2), "nlp", "b")});
  first.append_audit_outbox = {row(1, 1), row(2, 2)};
  commit_ok(*store, std::move(first));
  WriteBatch replaced = put_workloads({workload_record(WorkloadId(2), "nlp", "b")});
  replaced.append_audit_outbox = {row(3, 2)};
  commit_ok(*store, std::move(replaced));
  WriteBatch prune = put_workloads({workload_record(WorkloadId(1), "nlp", "a")});
  prune.delete_audit_outbox_through = 1;  // applies after the put: the row stays until the next
  commit_ok(*store, std::move(prune));
  RawDatabase raw(path());
  EXPECT_EQ(raw.query_text("SELECT audit_sequence FROM workloads WHERE id = 1"), "1");
  commit_ok(*store, put_workloads({workload_record(WorkloadId(1), "nlp", "a")}));
  EXPECT_EQ(raw.query_text("SELECT count(*) FROM workloads WHERE id = 1 AND "
                           "audit_sequence IS NULL AND audit_document IS NULL"),
            "1");
  EXPECT_EQ(raw.query_text("SELECT group_concat(sequence) FROM audit_outbox"), "2");
  WriteBatch removed;
  removed.delete_workloads = {WorkloadId(2)};
  commit_ok(*store, std::move(removed));
  EXPECT_EQ(raw.query_text("SELECT group_concat(sequence) FROM audit_outbox"), "2,3");
  EXPECT_EQ(raw.query_text("SELECT value FROM meta WHERE key = 'audit_outbox_floor'"), "1");
  EXPECT_EQ(sequences(store->load().value()), (std::vector<uint64_t>{2, 3}));
}

// A version 5 database (before the columns) keeps its workloads and rows
// through the step; a user_version set back to 5 applies it again as a no-op.
TEST_F(SqliteAuditOutboxTest, MigrationToVersion6KeepsWorkloadsAndRowsAndRunsAgainAsANoOp) {
  WriteBatch batch = put_workloads({workload_record(WorkloadId(1), "nlp", "a")});
  batch.append_audit_outbox = {row(4)};
  commit_ok(*open_ok(), batch);
  {
    RawDatabase raw(path());
    ASSERT_TRUE(raw.execute("ALTER TABLE workloads DROP COLUMN audit_sequence"));
    ASSERT_TRUE(raw.execute("ALTER TABLE workloads DROP COLUMN audit_id"));
    ASSERT_TRUE(raw.execute("ALTER TABLE workloads DROP COLUMN audit_document"));
    ASSERT_TRUE(raw.execute("DELETE FROM meta WHERE key = 'audit_outbox_floor'"));
    ASSERT_TRUE(raw.execute("PRAGMA user_version = 5"));
  }
  for (int open = 0; open < 2; ++open) {
    std::unique_ptr<SqliteStore> store = open_ok();
    ASSERT_NE(store, nullptr);
    const StoredState state = store->load().value();
    EXPECT_EQ(state.workloads, batch.put_workloads);
    EXPECT_EQ(sequences(state), std::vector<uint64_t>{4});
    RawDatabase raw(path());
    EXPECT_EQ(raw.query_text("PRAGMA user_version"), std::to_string(latest_schema_version()));
    ASSERT_TRUE(raw.execute("PRAGMA user_version = 5"));
  }
}

}  // namespace
}  // namespace allot
