// The audit outbox on the SQLite store (audit_outbox_cases.h).
#include <memory>
#include <string>

#include "audit_outbox_cases.h"
#include "store/sqlite/sqlite_store.h"

namespace allot::audit {
namespace {

using testing::fresh_folder;

testing::StoreOpener sqlite_opener(const std::string& root) {
  return [path = root + "/allot.db"]() -> Result<std::unique_ptr<Store>> {
    ALLOT_ASSIGN_OR_RETURN(auto store, SqliteStore::open(path));
    return std::unique_ptr<Store>(std::move(store));
  };
}

TEST(AuditOutboxSqlite, CarriedRecordIsAppendedAndItsRowPrunedOnceCheckpointed) {
  const std::string root = fresh_folder("outbox-carried");
  testing::case_carried_record_is_appended_and_its_row_pruned(sqlite_opener(root), root);
}

TEST(AuditOutboxSqlite, FailedCommitDetachesTheRow) {
  const std::string root = fresh_folder("outbox-failed");
  testing::case_failed_commit_detaches_the_row(sqlite_opener(root), root);
}

TEST(AuditOutboxSqlite, KillDashNineAfterCommitBeforeAppendRecoversTheRecord) {
  const std::string root = fresh_folder("outbox-kill");
  testing::case_kill_after_commit_before_append(sqlite_opener(root), root);
}

}  // namespace
}  // namespace allot::audit
