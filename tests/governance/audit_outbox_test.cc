// The audit outbox on the SQLite store (audit_outbox_cases.h).
#include <memory>
#include <string>

#include "audit_outbox_cases.h"
#include "service/audit/audit_outbox_row.h"
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

TEST(AuditOutboxSqlite, RangedDeleteWaitsForTheOldestRowNotCovered) {
  const std::string root = fresh_folder("outbox-range");
  testing::case_ranged_delete_waits_for_the_oldest_row_not_covered(sqlite_opener(root), root);
}

TEST(AuditOutboxSqlite, TableAndOlderRowsAreRecoveredAndSequencesContinue) {
  const std::string root = fresh_folder("outbox-older");
  testing::case_table_and_older_rows_are_recovered(sqlite_opener(root), root);
}

TEST(AuditOutboxSqlite, InvalidUtf8RequestIsRecordedAndRecoveredFromItsRow) {
  const std::string root = fresh_folder("outbox-utf8");
  testing::case_invalid_utf8_request_is_recorded_and_recovered(sqlite_opener(root), root);
}

// The final record takes the provisional one out of the scope (no copy):
// the scope keeps the auditID its row was committed under, and the record
// is appended under it. A scope whose record had none gets one from the
// log's source (a version 7 UUID of the request's time).
TEST(AuditOutboxSqlite, FinalRecordTakesTheProvisionalOneAndKeepsItsRowsId) {
  const std::string root = fresh_folder("outbox-take");
  testing::OutboxRig rig(root);
  ASSERT_EQ(rig.open(sqlite_opener(root)), "");
  ASSERT_TRUE(rig.store->load().ok());
  governance::AuditEvent provisional = testing::event_of("ana", "create");
  provisional.audit_id.clear();
  provisional.request_received = Timestamp::from_millis(1'700'000'000'000);
  {
    RequestScope scope(*rig.outbox, provisional);
    const std::string id = scope.provisional().audit_id;
    ASSERT_EQ(id.size(), 36u);
    EXPECT_EQ(id.substr(0, 15), "018bcfe5-6800-7") << id;
    ASSERT_TRUE(rig.store->commit(testing::team_batch("vision")).ok());
    governance::AuditEvent final_record = scope.take_provisional();
    EXPECT_EQ(final_record.audit_id, id);
    EXPECT_EQ(final_record.username, "ana");
    EXPECT_EQ(final_record.request_uri, provisional.request_uri);
    EXPECT_EQ(scope.provisional().audit_id, id);
    EXPECT_TRUE(scope.provisional().username.empty());
    final_record.response_code = 201;
    ASSERT_TRUE(rig.outbox->record(&scope, std::move(final_record)).ok());
    const std::vector<nlohmann::json> records = testing::outbox_case_records(rig.options);
    ASSERT_EQ(records.size(), 1u);
    EXPECT_EQ(records[0]["auditID"], id);
    EXPECT_EQ(records[0]["user"]["username"], "ana");
    EXPECT_EQ(records[0]["responseStatus"]["code"], 201);
  }
  ASSERT_TRUE(rig.log->close().ok());
  EXPECT_TRUE(testing::outbox_case_verify(rig.options, root).ok());
}

// The row's document is written by hand: it reads back as the same record,
// whatever its strings hold (quotes, backslashes, control characters,
// non-ASCII), with and without an object.
TEST(AuditOutboxRow, DocumentReadsBackAsTheSameRecord) {
  governance::AuditEvent event;
  event.audit_id = "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
  event.stage = "ResponseComplete";
  event.request_uri = "/api/v1/namespaces/vision/workloads?q=\"a\\b\"";
  event.verb = "create";
  event.username = "ana\u00e9\n\t\x01";
  event.groups = {"ml", "", "g\"q"};
  event.source_ips = {"10.0.0.1"};
  event.response_code = 409;
  event.response_message = "workload \"train\" exists";
  event.decision = "allow";
  event.reason = "because";
  event.rbac_rule = "b grants r: create workloads";
  event.request_received = Timestamp::from_millis(1'700'000'000'123);
  event.stage_time = Timestamp::from_millis(1'700'000'000'456);
  for (const bool with_object : {false, true}) {
    if (with_object)
      event.object_ref =
          governance::AuditObjectRef{"workloads", "vision", "train", "", "allot.dev"};
    const std::string document = outbox_row_document(42, event);
    EXPECT_EQ(document, outbox_row_document(OutboxRow{42, event}));
    const nlohmann::json json = nlohmann::json::parse(document);  // valid JSON
    EXPECT_EQ(json["username"], event.username);
    Result<OutboxRow> row = parse_outbox_row(event.audit_id, document);
    ASSERT_TRUE(row.ok()) << row.status().message();
    EXPECT_EQ(row->after_sequence, 42u);
    const governance::AuditEvent& back = row->event;
    EXPECT_EQ(back.audit_id, event.audit_id);
    EXPECT_EQ(back.stage, event.stage);
    EXPECT_EQ(back.request_uri, event.request_uri);
    EXPECT_EQ(back.verb, event.verb);
    EXPECT_EQ(back.username, event.username);
    EXPECT_EQ(back.groups, event.groups);
    EXPECT_EQ(back.source_ips, event.source_ips);
    EXPECT_EQ(back.response_code, event.response_code);
    EXPECT_EQ(back.response_message, event.response_message);
    EXPECT_EQ(back.decision, event.decision);
    EXPECT_EQ(back.reason, event.reason);
    EXPECT_EQ(back.rbac_rule, event.rbac_rule);
    EXPECT_EQ(back.request_received, event.request_received);
    EXPECT_EQ(back.stage_time, event.stage_time);
    ASSERT_EQ(back.object_ref.has_value(), with_object);
    if (with_object) {
      EXPECT_EQ(back.object_ref->resource, "workloads");
      EXPECT_EQ(back.object_ref->namespace_name, "vision");
      EXPECT_EQ(back.object_ref->name, "train");
      EXPECT_EQ(back.object_ref->subresource, "");
      EXPECT_EQ(back.object_ref->api_group, "allot.dev");
    }
    // The audit line of both is the same: what the log would hold.
    EXPECT_EQ(governance::audit_line({1, std::string(governance::kGenesisHash), back}),
              governance::audit_line({1, std::string(governance::kGenesisHash), event}));
  }
}

}  // namespace
}  // namespace allot::audit
