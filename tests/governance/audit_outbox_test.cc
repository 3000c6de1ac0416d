// The audit outbox on the SQLite store (audit_outbox_cases.h).
#include <memory>
#include <string>
#include <string_view>

#include "audit_outbox_cases.h"
#include "service/audit/audit_outbox_row.h"
#include "store/sqlite/sqlite_store.h"

namespace allot::audit {
namespace {

using testing::event_of;
using testing::fresh_folder;
using testing::options_in;

// A submit's row as an allotd before format 2 wrote it (submit_event(), after
// sequence 4).
constexpr std::string_view kFormatOneSubmit =
    R"json({"afterSequence":4,"auditID":"01a244a6-2e06-7244-9c7b-015a63b2d1e5",)json"
    R"json("stage":"ResponseComplete","requestURI":"/api/v1/namespaces/research/workloads",)json"
    R"json("verb":"create","username":"admin","groups":["system:admins"],)json"
    R"json("sourceIPs":["127.0.0.1"],"responseCode":0,"responseMessage":"","decision":"allow",)json"
    R"json("reason":"User \"admin\" may create workloads in namespace \"research\": )json"
    R"json(ClusterRoleBinding \"system:admins\" grants ClusterRole \"cluster-admin\" )json"
    R"json((verbs [*] on [*] in apiGroups [*])",)json"
    R"json("rbacRule":"ClusterRoleBinding \"system:admins\" grants ClusterRole )json"
    R"json(\"cluster-admin\": verbs [*] on [*] in apiGroups [*]",)json"
    R"json("requestReceivedMs":1796448071174,"stageTimeMs":1796448071175,)json"
    R"json("objectRef":{"resource":"workloads","namespace":"research","name":"",)json"
    R"json("subresource":"","apiGroup":"allot.dev"}})json";

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

TEST(AuditOutboxSqlite, FailedCommitBetweenCarriedRowsNeitherWaitsNorStopsTheRange) {
  const std::string root = fresh_folder("outbox-failed-between");
  testing::case_failed_commit_between_carried_rows(sqlite_opener(root), root);
}

TEST(AuditOutboxSqlite, KillDashNineAfterCommitBeforeAppendRecoversTheRecord) {
  const std::string root = fresh_folder("outbox-kill");
  testing::case_kill_after_commit_before_append(sqlite_opener(root), root);
}

// The log's writer thread (AuditLog::start_writer) had not yet written the
// line of an answered request when allotd was killed: the record comes back
// from its row at start, as one killed between its commit and its append.
TEST(AuditOutboxSqlite, KillDashNineBeforeTheWriterWroteTheAnswersLineRecoversTheRecord) {
  const std::string root = fresh_folder("outbox-kill-writer");
  const AuditLogOptions options = options_in(root);
  ASSERT_NO_FATAL_FAILURE(testing::expect_killed_child([&] {
    testing::OutboxRig rig(root);
    if (!rig.open(sqlite_opener(root)).empty()) return 2;
    rig.log->start_writer(Duration::hours(1));  // never writes within the test
    if (!rig.store->load().ok() || !rig.log->record(event_of("before", "create")).ok()) return 3;
    RequestScope scope(*rig.outbox, event_of("ana", "create"));
    if (!rig.store->commit(testing::team_batch("vision")).ok()) return 4;
    if (!rig.outbox->record(&scope, event_of("ana", "create")).ok()) return 5;
    ::raise(SIGKILL);  // answered; its line left to the writer thread
    return 6;
  }));

  testing::OutboxRig rig(root);
  ASSERT_EQ(rig.open(sqlite_opener(root)), "");
  EXPECT_EQ(testing::outbox_rows_of(*rig.inner).size(), 1u);
  ASSERT_TRUE(rig.store->load().ok());
  EXPECT_TRUE(testing::outbox_rows_of(*rig.inner).empty());
  const std::vector<nlohmann::json> records = testing::outbox_case_records(options);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["auditID"], "before-create");
  EXPECT_EQ(records[1]["auditID"], "ana-create");
  EXPECT_EQ(records[1]["stage"], "RequestReceived");
  const governance::VerificationReport report = testing::outbox_case_verify(options, root);
  EXPECT_TRUE(report.ok()) << report.problems.front().message;
  EXPECT_EQ(report.records, 2u);
  EXPECT_EQ(report.uncovered_tail, 0u);
}

TEST(AuditOutboxSqlite, WorkloadCreateRowIsRecoveredAndRowsGoAboveTheFloor) {
  const std::string root = fresh_folder("outbox-workload-row");
  testing::case_workload_create_row_is_recovered_and_rows_go_above_the_floor(sqlite_opener(root),
                                                                             root);
}

// A request's row names the first workload its batch puts, so that the
// store may keep it in that workload's row (store.h); a batch that puts none
// names none.
TEST(AuditOutboxSqlite, RowNamesTheFirstWorkloadItsBatchPuts) {
  const std::string root = fresh_folder("outbox-names-workload");
  testing::OutboxRig rig(root);
  ASSERT_EQ(rig.open(sqlite_opener(root)), "");
  ASSERT_TRUE(rig.store->load().ok());
  {
    RequestScope scope(*rig.outbox, testing::event_of("ana", "create"));
    WriteBatch batch = testing::workload_batch(7, "train");
    batch.put_workloads.push_back(testing::workload_batch(8, "tune").put_workloads.front());
    (void)rig.outbox->attach(batch);
    ASSERT_EQ(batch.append_audit_outbox.size(), 1u);
    EXPECT_EQ(batch.append_audit_outbox.front().with_workload, WorkloadId(7));
  }
  RequestScope scope(*rig.outbox, testing::event_of("bo", "create"));
  WriteBatch teams = testing::team_batch("vision");
  (void)rig.outbox->attach(teams);
  ASSERT_EQ(teams.append_audit_outbox.size(), 1u);
  EXPECT_FALSE(teams.append_audit_outbox.front().with_workload.valid());
}

TEST(AuditOutboxSqlite, RangedDeleteWaitsForTheOldestRowNotCovered) {
  const std::string root = fresh_folder("outbox-range");
  testing::case_ranged_delete_waits_for_the_oldest_row_not_covered(sqlite_opener(root), root);
}

TEST(AuditOutboxSqlite, TableAndOlderRowsAreRecoveredAndSequencesContinue) {
  const std::string root = fresh_folder("outbox-older");
  testing::case_table_and_older_rows_are_recovered(sqlite_opener(root), root);
}

TEST(AuditOutboxSqlite, FormatOneRowsOfAnOlderAllotdAreRecovered) {
  const std::string root = fresh_folder("outbox-older-format");
  testing::case_format_one_rows_are_recovered(sqlite_opener(root), root);
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

// The row's document is built when the scope opens, not under the control
// plane's lock at the commit: its afterSequence is the chain's last sequence
// then (a record appended between the two does not move it). A commit that
// fails takes the document with its batch; a later commit of the request
// carries the row again, with its document built anew.
TEST(AuditOutboxSqlite, RowDocumentIsBuiltWhenTheScopeOpens) {
  const std::string root = fresh_folder("outbox-early-document");
  testing::OutboxRig rig(root);
  ASSERT_EQ(rig.open(sqlite_opener(root)), "");
  ASSERT_TRUE(rig.store->load().ok());
  ASSERT_TRUE(rig.log->record_async(testing::event_of("ana", "delete")).ok());
  ASSERT_EQ(rig.log->written(), 1u);
  {
    RequestScope scope(*rig.outbox, testing::event_of("bo", "create"));
    ASSERT_TRUE(rig.log->record_async(testing::event_of("cy", "patch")).ok());
    ASSERT_EQ(rig.log->written(), 2u);
    ASSERT_TRUE(rig.store->commit(testing::team_batch("vision")).ok());
    ASSERT_TRUE(scope.carried());
    const std::vector<ObjectRecord> rows = testing::outbox_rows_of(*rig.inner);
    ASSERT_EQ(rows.size(), 1u);
    const Result<OutboxRow> row = parse_outbox_row(rows[0].name, rows[0].document);
    ASSERT_TRUE(row.ok()) << row.status().message();
    EXPECT_EQ(row->after_sequence, 1u);
    EXPECT_EQ(row->event.username, "bo");
    EXPECT_EQ(row->event.verb, "create");
  }
  {
    WriteBatch first;
    first.put_workloads.push_back(
        {WorkloadId(1), "vision", "train", "vision", WorkloadPhase::kPending, "{}"});
    ASSERT_TRUE(rig.store->commit(first).ok());
    RequestScope scope(*rig.outbox, testing::event_of("di", "create"));
    WriteBatch taken;  // the same name under another id: refused
    taken.put_workloads.push_back(
        {WorkloadId(2), "vision", "train", "vision", WorkloadPhase::kPending, "{}"});
    ASSERT_EQ(rig.store->commit(taken).code(), ErrorCode::kAlreadyExists);
    ASSERT_FALSE(scope.carried());
    ASSERT_TRUE(rig.store->commit(testing::team_batch("speech")).ok());
    ASSERT_TRUE(scope.carried());
    bool found = false;
    for (const ObjectRecord& stored : testing::outbox_rows_of(*rig.inner)) {
      if (stored.name != "di-create") continue;
      const Result<OutboxRow> row = parse_outbox_row(stored.name, stored.document);
      ASSERT_TRUE(row.ok()) << row.status().message();
      EXPECT_EQ(row->event.username, "di");
      EXPECT_EQ(row->after_sequence, 2u);
      found = true;
    }
    EXPECT_TRUE(found);
  }
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
    ASSERT_TRUE(json.is_array());                                 // format 2: by position
    EXPECT_EQ(json[0], 2);
    EXPECT_EQ(json[5], event.username);
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

// A submit's record as allotd builds it: the authorizer's reason ends with the
// RBAC rule (authz/authorizer.cc).
governance::AuditEvent submit_event() {
  governance::AuditEvent event;
  event.audit_id = "01a244a6-2e06-7244-9c7b-015a63b2d1e5";
  event.request_uri = "/api/v1/namespaces/research/workloads";
  event.verb = "create";
  event.username = "admin";
  event.groups = {"system:admins"};
  event.source_ips = {"127.0.0.1"};
  event.object_ref = governance::AuditObjectRef{"workloads", "research", "", "", "allot.dev"};
  event.decision = "allow";
  event.rbac_rule =
      R"(ClusterRoleBinding "system:admins" grants ClusterRole "cluster-admin": verbs [*] on [*] )"
      "in apiGroups [*]";
  event.reason =
      R"(User "admin" may create workloads in namespace "research": ClusterRoleBinding )"
      R"("system:admins" grants ClusterRole "cluster-admin" (verbs [*] on [*] in apiGroups [*]))";
  event.request_received = Timestamp::from_millis(1'796'448'071'174);
  event.stage_time = Timestamp::from_millis(1'796'448'071'175);
  return event;
}

size_t occurrences(const std::string& text, const std::string& part) {
  size_t count = 0;
  for (size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++count;
  return count;
}

// Format 2 holds the RBAC rule once: the reason keeps only its text before
// the rule, and reads back whole. A reason that does not end with the rule
// (another rule, or a refusal's) is kept whole.
TEST(AuditOutboxRow, ReasonRepeatingTheRbacRuleHoldsItOnceAndReadsBack) {
  governance::AuditEvent event = submit_event();
  const std::string document = outbox_row_document(7, event);
  EXPECT_EQ(occurrences(document, "cluster-admin"), 1u) << document;
  EXPECT_EQ(occurrences(document, "in apiGroups [*]"), 1u) << document;
  EXPECT_EQ(document.find(event.audit_id), std::string::npos) << document;  // the row's name
  Result<OutboxRow> row = parse_outbox_row(event.audit_id, document);
  ASSERT_TRUE(row.ok()) << row.status().message();
  EXPECT_EQ(row->event, event);
  EXPECT_EQ(row->after_sequence, 7u);

  event.rbac_rule = R"(RoleBinding "research/members" grants ClusterRole "team-member": x)";
  const std::string other = outbox_row_document(7, event);
  EXPECT_EQ(occurrences(other, "cluster-admin"), 1u) << other;  // the reason, whole
  row = parse_outbox_row(event.audit_id, other);
  ASSERT_TRUE(row.ok()) << row.status().message();
  EXPECT_EQ(row->event, event);
  event.decision = "forbid";
  event.rbac_rule.clear();
  event.reason = R"(User "bo" cannot create workloads in namespace "research": no binding)";
  event.stage = "RequestReceived";
  row = parse_outbox_row(event.audit_id, outbox_row_document(7, event));
  ASSERT_TRUE(row.ok()) << row.status().message();
  EXPECT_EQ(row->event, event);
}

// What the row costs the store's commit: a submit's format 2 row is under half
// of the format 1 document an allotd before it wrote for the same record.
TEST(AuditOutboxRow, SubmitsRowIsUnderHalfOfFormatOne) {
  const std::string document = outbox_row_document(4, submit_event());
  EXPECT_LT(document.size(), kFormatOneSubmit.size() / 2) << document;
}

// Rows an allotd before format 2 left in the store (format 1: named members)
// still read back, as the same record.
TEST(AuditOutboxRow, FormatOneRowOfAnOlderAllotdReadsBack) {
  Result<OutboxRow> row = parse_outbox_row(submit_event().audit_id, std::string(kFormatOneSubmit));
  ASSERT_TRUE(row.ok()) << row.status().message();
  EXPECT_EQ(row->after_sequence, 4u);
  EXPECT_EQ(row->event, submit_event());
  EXPECT_FALSE(parse_outbox_row("another-id", std::string(kFormatOneSubmit)).ok());
}

// A document format 2 did not write is refused, naming the row.
TEST(AuditOutboxRow, MalformedFormatTwoRowIsRefused) {
  const governance::AuditEvent event = submit_event();
  std::string document = outbox_row_document(4, event);
  ASSERT_EQ(document.substr(0, 3), "[2,");
  const std::string fields_short = document.substr(0, document.rfind(",[")) + "]";
  const std::string unsplit = std::string(document).replace(document.find(",69]"), 4, ",9]");
  for (const std::string& bad :
       {"[3" + document.substr(2), std::string("[2,4]"), std::string("[]"), std::string("42"),
        document + ",", std::string(document).replace(document.find(",[\"workloads\""), 1, ",7,"),
        unsplit}) {
    const Result<OutboxRow> row = parse_outbox_row(event.audit_id, bad);
    EXPECT_FALSE(row.ok()) << bad;
    if (!row.ok()) {
      EXPECT_NE(row.status().message().find(event.audit_id), std::string::npos);
    }
  }
  EXPECT_TRUE(parse_outbox_row(event.audit_id, fields_short).ok());  // no object: 15 fields
}

}  // namespace
}  // namespace allot::audit
