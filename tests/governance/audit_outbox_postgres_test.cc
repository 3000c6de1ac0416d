// The audit outbox on the PostgreSQL store (audit_outbox_cases.h), on the
// tests' real PostgreSQL server (tests/store/postgres_test_database.h).
#include <chrono>
#include <memory>
#include <string>
#include <utility>

#include "audit_outbox_cases.h"
#include "store/leading_postgres_store.h"
#include "store/postgres/pg_leader_lock.h"
#include "store/postgres/postgres_store.h"
#include "store/postgres_test_database.h"

namespace allot::audit {
namespace {

using testing::fresh_folder;

testing::StoreOpener postgres_opener(const std::string& conninfo) {
  return [conninfo]() -> Result<std::unique_ptr<Store>> {
    // A killed leader's lock goes with its connection: wait for it, 10 s at most.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    ALLOT_ASSIGN_OR_RETURN(
        PgLeaderLock lock,
        PgLeaderLock::acquire(conninfo, "audit-outbox", std::chrono::milliseconds(10),
                              [deadline] { return std::chrono::steady_clock::now() > deadline; }));
    ALLOT_ASSIGN_OR_RETURN(std::unique_ptr<PostgresStore> store,
                           PostgresStore::open(conninfo, lock.term()));
    return std::unique_ptr<Store>(
        new store_test::LeadingPostgresStore(std::move(lock), std::move(store)));
  };
}

class AuditOutboxPostgres : public ::testing::Test {
 protected:
  void SetUp() override {
    Result<store_test::PostgresTestDatabase> made = store_test::PostgresTestDatabase::create();
    ASSERT_TRUE(made.ok()) << made.status().message();
    database_ = std::make_unique<store_test::PostgresTestDatabase>(std::move(made).value());
  }
  [[nodiscard]] testing::StoreOpener opener() const {
    return postgres_opener(database_->conninfo());
  }
  std::unique_ptr<store_test::PostgresTestDatabase> database_;
};

TEST_F(AuditOutboxPostgres, CarriedRecordIsAppendedAndItsRowPrunedOnceCheckpointed) {
  const std::string root = fresh_folder("outbox-pg-carried");
  testing::case_carried_record_is_appended_and_its_row_pruned(opener(), root);
}

TEST_F(AuditOutboxPostgres, FailedCommitDetachesTheRow) {
  const std::string root = fresh_folder("outbox-pg-failed");
  testing::case_failed_commit_detaches_the_row(opener(), root);
}

TEST_F(AuditOutboxPostgres, FailedCommitBetweenCarriedRowsNeitherWaitsNorStopsTheRange) {
  const std::string root = fresh_folder("outbox-pg-failed-between");
  testing::case_failed_commit_between_carried_rows(opener(), root);
}

TEST_F(AuditOutboxPostgres, KillDashNineAfterCommitBeforeAppendRecoversTheRecord) {
  const std::string root = fresh_folder("outbox-pg-kill");
  testing::case_kill_after_commit_before_append(opener(), root);
}

TEST_F(AuditOutboxPostgres, WorkloadCreateRowIsRecoveredAndRowsGoAboveTheFloor) {
  const std::string root = fresh_folder("outbox-pg-workload-row");
  testing::case_workload_create_row_is_recovered_and_rows_go_above_the_floor(opener(), root);
}

TEST_F(AuditOutboxPostgres, RangedDeleteWaitsForTheOldestRowNotCovered) {
  const std::string root = fresh_folder("outbox-pg-range");
  testing::case_ranged_delete_waits_for_the_oldest_row_not_covered(opener(), root);
}

TEST_F(AuditOutboxPostgres, TableAndOlderRowsAreRecoveredAndSequencesContinue) {
  const std::string root = fresh_folder("outbox-pg-older");
  testing::case_table_and_older_rows_are_recovered(opener(), root);
}

TEST_F(AuditOutboxPostgres, FormatOneRowsOfAnOlderAllotdAreRecovered) {
  const std::string root = fresh_folder("outbox-pg-older-format");
  testing::case_format_one_rows_are_recovered(opener(), root);
}

TEST_F(AuditOutboxPostgres, InvalidUtf8RequestIsRecordedAndRecoveredFromItsRow) {
  const std::string root = fresh_folder("outbox-pg-utf8");
  testing::case_invalid_utf8_request_is_recorded_and_recovered(opener(), root);
}

}  // namespace
}  // namespace allot::audit
