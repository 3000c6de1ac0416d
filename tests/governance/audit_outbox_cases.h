// The audit outbox's cases (service/audit/audit_outbox.h), run against a
// real store: SQLite (audit_outbox_test.cc) and PostgreSQL
// (audit_outbox_postgres_test.cc). Each case takes a function that opens
// the store (the same one every time it is called) and a fresh folder.
#pragma once

#include <csignal>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>
#include <unistd.h>

#include "audit_test_support.h"
#include "base/clock.h"
#include "base/logger.h"
#include "service/audit/audit_key.h"
#include "service/audit/audit_outbox.h"
#include "service/audit/audit_outbox_row.h"
#include "service/audit/audit_reading.h"
#include "service/audit/outbox_store.h"
#include "store/store.h"

namespace allot::audit::testing {

using StoreOpener = std::function<Result<std::unique_ptr<Store>>()>;

inline WriteBatch team_batch(const std::string& name) {
  WriteBatch batch;
  batch.put_objects.push_back({"Team", name, R"({"name":")" + name + R"("})"});
  return batch;
}

// Runs `child` in a forked process, which must end by SIGKILL: it raises
// it at the moment under test, and returns the number of the step that
// failed otherwise (its exit code in the failure's message).
inline void expect_killed_child(const std::function<int()>& child) {
  const pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) ::_exit(child());
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) << "child status " << status;
}

// The outbox rows `store` holds (named by their auditIDs): those of its
// outbox table, and objects of kind AuditOutbox (an older allotd's rows).
inline std::vector<ObjectRecord> outbox_rows_of(Store& store) {
  Result<StoredState> state = store.load();
  EXPECT_TRUE(state.ok()) << state.status().message();
  std::vector<ObjectRecord> rows;
  if (!state.ok()) return rows;
  for (const AuditOutboxRecord& row : state->audit_outbox) {
    rows.push_back({std::string(kAuditOutboxKind), row.audit_id, row.document});
  }
  for (const ObjectRecord& object : state->objects) {
    if (object.kind == kAuditOutboxKind) rows.push_back(object);
  }
  return rows;
}

// The records of the log, parsed, oldest first.
inline std::vector<nlohmann::json> outbox_case_records(const AuditLogOptions& options) {
  AuditQuery every;
  every.limit = 100000;
  std::vector<nlohmann::json> out;
  const Result<std::vector<std::string>> lines = query_audit_log(options.dir, every);
  EXPECT_TRUE(lines.ok());
  if (!lines.ok()) return out;
  for (const std::string& line : *lines) {
    out.push_back(nlohmann::json::parse(line));
  }
  return out;
}

inline governance::VerificationReport outbox_case_verify(const AuditLogOptions& options,
                                                         const std::string& root) {
  const Result<std::string> key = read_audit_public_key(root + "/key.pub");
  EXPECT_TRUE(key.ok());
  Result<governance::VerificationReport> report =
      verify_audit_log(options.dir, options.checkpoint_dir, *key);
  EXPECT_TRUE(report.ok());
  return report.ok() ? *report : governance::VerificationReport{};
}

// What every case sets up: the audit log (with a manual clock), the store
// the opener gives, and the outbox store in front of it. open() returns ""
// or why it could not open them; the store is not loaded.
struct OutboxRig {
  explicit OutboxRig(const std::string& root)
      : options(options_in(root)), key_file(root + "/key") {}

  std::string open(const StoreOpener& open_store) {
    Result<identity::SigningKey> loaded = load_or_create_audit_key(key_file);
    if (!loaded.ok()) return "audit key: " + loaded.status().message();
    Result<std::unique_ptr<AuditLog>> opened = AuditLog::open(options, *loaded, clock, logger);
    if (!opened.ok()) return "audit log: " + opened.status().message();
    log = std::move(opened).value();
    Result<std::unique_ptr<Store>> opened_store = open_store();
    if (!opened_store.ok()) return "store: " + opened_store.status().message();
    inner = std::move(opened_store).value();
    outbox = std::make_unique<AuditOutbox>(*log, logger);
    store = std::make_unique<OutboxStore>(*inner, *outbox);
    return {};
  }

  AuditLogOptions options;
  std::string key_file;
  ManualClock clock{Timestamp::from_millis(1'000'000)};
  MemoryLogger logger;
  std::unique_ptr<AuditLog> log;
  std::unique_ptr<Store> inner;
  std::unique_ptr<AuditOutbox> outbox;
  std::unique_ptr<OutboxStore> store;  // in front of `inner`
};

// A request's row is committed with its change; its final record is
// appended without a sync; once a checkpoint covers it, the next batch
// deletes the row.
inline void case_carried_record_is_appended_and_its_row_pruned(const StoreOpener& open_store,
                                                               const std::string& root) {
  OutboxRig rig(root);
  ASSERT_EQ(rig.open(open_store), "");
  ASSERT_TRUE(rig.store->load().ok());
  const AuditLogOptions& options = rig.options;
  AuditLog& log = *rig.log;
  Store& inner = *rig.inner;
  AuditOutbox& outbox = *rig.outbox;
  OutboxStore& store = *rig.store;
  {
    RequestScope scope(outbox, event_of("ana", "create"));
    EXPECT_FALSE(scope.carried());
    ASSERT_TRUE(store.commit(team_batch("vision")).ok());
    EXPECT_TRUE(scope.carried());
    ASSERT_TRUE(store.commit(team_batch("speech")).ok());  // a second commit: no second row
    const std::vector<ObjectRecord> rows = outbox_rows_of(inner);
    ASSERT_EQ(rows.size(), 1u);
    EXPECT_EQ(rows[0].name, "ana-create");
    governance::AuditEvent done = event_of("ana", "create");
    done.audit_id.clear();
    ASSERT_TRUE(outbox.record(&scope, done).ok());
  }
  std::vector<nlohmann::json> records = outbox_case_records(options);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["auditID"], "ana-create");  // the row's id
  EXPECT_EQ(records[0]["stage"], "ResponseComplete");
  EXPECT_EQ(outbox.rows_to_prune(), 1u);
  ASSERT_TRUE(store.commit(team_batch("nlp")).ok());  // not covered yet: the row stays
  EXPECT_EQ(outbox_rows_of(inner).size(), 1u);
  ASSERT_TRUE(log.checkpoint_if_due(true).ok());
  ASSERT_TRUE(store.commit(team_batch("audio")).ok());
  EXPECT_TRUE(outbox_rows_of(inner).empty());
  EXPECT_EQ(outbox.rows_to_prune(), 0u);
  // The rest of allotd never sees a row.
  Result<StoredState> state = store.load();
  ASSERT_TRUE(state.ok());
  EXPECT_EQ(state->objects.size(), 4u);
  ASSERT_TRUE(log.close().ok());
  const governance::VerificationReport report = outbox_case_verify(options, root);
  EXPECT_TRUE(report.ok());
  EXPECT_EQ(report.records, 1u);
  EXPECT_EQ(report.uncovered_tail, 0u);
}

// A commit that fails carries nothing: the request's record is synced the
// old way, and a later commit of the request may carry it.
inline void case_failed_commit_detaches_the_row(const StoreOpener& open_store,
                                                const std::string& root) {
  OutboxRig rig(root);
  ASSERT_EQ(rig.open(open_store), "");
  ASSERT_TRUE(rig.store->load().ok());
  AuditLog& log = *rig.log;
  Store& inner = *rig.inner;
  AuditOutbox& outbox = *rig.outbox;
  OutboxStore& store = *rig.store;
  WriteBatch first;
  first.put_workloads.push_back(
      {WorkloadId(1), "vision", "train", "vision", WorkloadPhase::kPending, "{}"});
  ASSERT_TRUE(store.commit(first).ok());
  RequestScope scope(outbox, event_of("bo", "create"));
  WriteBatch taken;  // the same name under another id
  taken.put_workloads.push_back(
      {WorkloadId(2), "vision", "train", "vision", WorkloadPhase::kPending, "{}"});
  EXPECT_EQ(store.commit(taken).code(), ErrorCode::kAlreadyExists);
  EXPECT_FALSE(scope.carried());
  EXPECT_TRUE(outbox_rows_of(inner).empty());
  ASSERT_TRUE(outbox.record(&scope, event_of("bo", "create")).ok());  // synced, no row
  EXPECT_EQ(outbox.rows_to_prune(), 0u);
  EXPECT_EQ(log.head().sequence, 1u);
  ASSERT_TRUE(store.commit(team_batch("vision")).ok());
  EXPECT_TRUE(scope.carried());
  EXPECT_EQ(outbox_rows_of(inner).size(), 1u);
}

// A commit that fails between two carried ones: its row (detached, never in
// the store) neither counts as waiting nor stops the ranged delete of the
// rows around it, and the rows after it keep their place.
inline void case_failed_commit_between_carried_rows(const StoreOpener& open_store,
                                                    const std::string& root) {
  OutboxRig rig(root);
  ASSERT_EQ(rig.open(open_store), "");
  ASSERT_TRUE(rig.store->load().ok());
  AuditLog& log = *rig.log;
  Store& inner = *rig.inner;
  AuditOutbox& outbox = *rig.outbox;
  OutboxStore& store = *rig.store;
  WriteBatch first;
  first.put_workloads.push_back(
      {WorkloadId(1), "vision", "train", "vision", WorkloadPhase::kPending, "{}"});
  {
    RequestScope ana(outbox, event_of("ana", "create"));
    ASSERT_TRUE(store.commit(first).ok());  // row 1
    ASSERT_TRUE(outbox.record(&ana, event_of("ana", "create")).ok());
  }
  {
    RequestScope bo(outbox, event_of("bo", "create"));
    WriteBatch taken;  // the same name under another id: refused, row 2 detached
    taken.put_workloads.push_back(
        {WorkloadId(2), "vision", "train", "vision", WorkloadPhase::kPending, "{}"});
    EXPECT_EQ(store.commit(taken).code(), ErrorCode::kAlreadyExists);
    EXPECT_FALSE(bo.carried());
    ASSERT_TRUE(outbox.record(&bo, event_of("bo", "create")).ok());  // synced, no row
  }
  RequestScope cy(outbox, event_of("cy", "create"));
  ASSERT_TRUE(store.commit(team_batch("speech")).ok());  // row 3
  EXPECT_TRUE(cy.carried());
  EXPECT_EQ(outbox_rows_of(inner).size(), 2u);
  EXPECT_EQ(outbox.rows_to_prune(), 2u);          // rows 1 and 3; not the detached one
  ASSERT_TRUE(log.checkpoint_if_due(true).ok());  // covers ana's and bo's records
  ASSERT_TRUE(store.commit(team_batch("nlp")).ok());
  std::vector<ObjectRecord> rows = outbox_rows_of(inner);
  ASSERT_EQ(rows.size(), 1u);  // row 1 deleted, row 3 waits for its record
  EXPECT_EQ(rows[0].name, "cy-create");
  EXPECT_EQ(outbox.rows_to_prune(), 1u);
  ASSERT_TRUE(outbox.record(&cy, event_of("cy", "create")).ok());
  ASSERT_TRUE(log.checkpoint_if_due(true).ok());
  ASSERT_TRUE(store.commit(team_batch("audio")).ok());
  EXPECT_TRUE(outbox_rows_of(inner).empty());
  EXPECT_EQ(outbox.rows_to_prune(), 0u);
  const std::vector<nlohmann::json> records = outbox_case_records(rig.options);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0]["auditID"], "ana-create");
  EXPECT_EQ(records[1]["auditID"], "bo-create");
  EXPECT_EQ(records[2]["auditID"], "cy-create");
}

// kill -9 after the commit and before the append: a child process commits
// two requests' changes; the first one's record is appended, the second's
// not; then it is killed. On restart the second record is appended from its
// row (once; the first is not repeated), the chain verifies, a checkpoint
// covers it, and the rows are gone.
inline void case_kill_after_commit_before_append(const StoreOpener& open_store,
                                                 const std::string& root) {
  const AuditLogOptions options = options_in(root);
  ASSERT_NO_FATAL_FAILURE(expect_killed_child([&] {
    OutboxRig rig(root);  // creates the key the parent's rig then reads
    if (!rig.open(open_store).empty()) return 2;
    AuditOutbox& outbox = *rig.outbox;
    OutboxStore& store = *rig.store;
    if (!store.load().ok() || !rig.log->record(event_of("before", "create")).ok()) return 3;
    {
      RequestScope scope(outbox, event_of("ana", "create"));
      if (!store.commit(team_batch("vision")).ok()) return 4;
      if (!outbox.record(&scope, event_of("ana", "create")).ok()) return 5;
    }
    RequestScope scope(outbox, event_of("bo", "delete"));
    if (!store.commit(team_batch("speech")).ok()) return 6;
    ::raise(SIGKILL);  // committed, not appended
    return 7;
  }));

  OutboxRig rig(root);
  ASSERT_EQ(rig.open(open_store), "");
  Store& inner = *rig.inner;
  EXPECT_EQ(outbox_rows_of(inner).size(), 2u);  // both rows: neither was covered
  Result<StoredState> state = rig.store->load();
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ(state->objects.size(), 2u);  // the two teams, no row
  EXPECT_TRUE(outbox_rows_of(inner).empty());
  const std::vector<nlohmann::json> records = outbox_case_records(options);
  ASSERT_EQ(records.size(), 3u);
  EXPECT_EQ(records[0]["auditID"], "before-create");
  EXPECT_EQ(records[1]["auditID"], "ana-create");
  EXPECT_EQ(records[1]["stage"], "ResponseComplete");
  EXPECT_EQ(records[2]["auditID"], "bo-delete");
  EXPECT_EQ(records[2]["stage"], "RequestReceived");
  EXPECT_EQ(records[2]["user"]["username"], "bo");
  EXPECT_NE(records[2].dump().find("recovered at start from the store's audit outbox"),
            std::string::npos);
  bool warned = false;
  for (const LogEntry& entry : rig.logger.entries()) {
    warned = warned || entry.field("records").value_or("") == "1";
  }
  EXPECT_TRUE(warned);
  const governance::VerificationReport report = outbox_case_verify(options, root);
  EXPECT_TRUE(report.ok()) << report.problems.front().message;
  EXPECT_EQ(report.records, 3u);
  EXPECT_EQ(report.uncovered_tail, 0u);
}

// A request URI (and other fields) holding bytes that are not UTF-8: the
// row stays valid JSON (each such byte becomes U+FFFD, as in the log's
// lines), the record of a request answered is in the log, and the one of a
// request killed after its commit is recovered from its row at restart; the
// chain verifies.
inline void case_invalid_utf8_request_is_recorded_and_recovered(const StoreOpener& open_store,
                                                                const std::string& root) {
  const AuditLogOptions options = options_in(root);
  const auto invalid = [](const std::string& user) {
    governance::AuditEvent event = event_of(user, "create");
    event.request_uri = "/api/v1/namespaces/vision/workloads?name=\xff\xfe";
    event.username = user + "\xc3";                // cut short
    event.object_ref->name = "w\x80\xed\xa0\x80";  // a lone continuation, a surrogate
    return event;
  };
  ASSERT_NO_FATAL_FAILURE(expect_killed_child([&] {
    OutboxRig rig(root);
    if (!rig.open(open_store).empty()) return 2;
    AuditOutbox& outbox = *rig.outbox;
    OutboxStore& store = *rig.store;
    if (!store.load().ok()) return 3;
    {
      RequestScope scope(outbox, invalid("ana"));
      if (!store.commit(team_batch("vision")).ok()) return 4;
      if (!outbox.record(&scope, invalid("ana")).ok()) return 5;
    }
    RequestScope scope(outbox, invalid("bo"));
    if (!store.commit(team_batch("speech")).ok()) return 6;
    ::raise(SIGKILL);  // committed, not appended
    return 7;
  }));

  OutboxRig rig(root);
  ASSERT_EQ(rig.open(open_store), "");
  const std::vector<ObjectRecord> rows = outbox_rows_of(*rig.inner);
  ASSERT_EQ(rows.size(), 2u);
  for (const ObjectRecord& row : rows) {
    EXPECT_FALSE(nlohmann::json::parse(row.document, nullptr, false).is_discarded())
        << row.document;
  }
  Result<StoredState> state = rig.store->load();  // recovers
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_TRUE(outbox_rows_of(*rig.inner).empty());
  const std::vector<nlohmann::json> records = outbox_case_records(options);
  ASSERT_EQ(records.size(), 2u);
  const std::string replaced = "/api/v1/namespaces/vision/workloads?name=\uFFFD\uFFFD";
  EXPECT_EQ(records[0]["auditID"], "ana-create");
  EXPECT_EQ(records[0]["stage"], "ResponseComplete");
  EXPECT_EQ(records[0]["requestURI"], replaced);
  EXPECT_EQ(records[0]["user"]["username"], "ana\uFFFD");
  EXPECT_EQ(records[1]["auditID"], "bo-create");
  EXPECT_EQ(records[1]["stage"], "RequestReceived");
  EXPECT_EQ(records[1]["requestURI"], replaced);
  EXPECT_EQ(records[1]["user"]["username"], "bo\uFFFD");
  EXPECT_EQ(records[1]["objectRef"]["name"], "w\uFFFD\uFFFD\uFFFD\uFFFD");
  const governance::VerificationReport report = outbox_case_verify(options, root);
  EXPECT_TRUE(report.ok()) << report.problems.front().message;
  EXPECT_EQ(report.records, 2u);
  EXPECT_EQ(report.uncovered_tail, 0u);
}

// Rows commit, and their records are appended, in any order: the ranged
// delete of covered rows stops below the oldest row whose record is not yet
// covered by a checkpoint, then takes both rows in one batch once it is.
inline void case_ranged_delete_waits_for_the_oldest_row_not_covered(const StoreOpener& open_store,
                                                                    const std::string& root) {
  OutboxRig rig(root);
  ASSERT_EQ(rig.open(open_store), "");
  ASSERT_TRUE(rig.store->load().ok());
  AuditLog& log = *rig.log;
  Store& inner = *rig.inner;
  AuditOutbox& outbox = *rig.outbox;
  OutboxStore& store = *rig.store;
  RequestScope first(outbox, event_of("ana", "create"));
  ASSERT_TRUE(store.commit(team_batch("vision")).ok());  // row 1
  {
    RequestScope second(outbox, event_of("bo", "create"));  // hides the first
    ASSERT_TRUE(store.commit(team_batch("speech")).ok());   // row 2
    ASSERT_TRUE(outbox.record(&second, event_of("bo", "create")).ok());
  }
  ASSERT_TRUE(log.checkpoint_if_due(true).ok());  // covers the second's record only
  ASSERT_TRUE(store.commit(team_batch("nlp")).ok());
  EXPECT_EQ(outbox_rows_of(inner).size(), 2u);  // row 1 waits: nothing deleted
  EXPECT_EQ(outbox.rows_to_prune(), 2u);
  ASSERT_TRUE(outbox.record(&first, event_of("ana", "create")).ok());
  ASSERT_TRUE(store.commit(team_batch("audio")).ok());
  EXPECT_EQ(outbox_rows_of(inner).size(), 2u);  // appended, not yet covered
  ASSERT_TRUE(log.checkpoint_if_due(true).ok());
  ASSERT_TRUE(store.commit(team_batch("robotics")).ok());
  EXPECT_TRUE(outbox_rows_of(inner).empty());
  EXPECT_EQ(outbox.rows_to_prune(), 0u);
  const std::vector<nlohmann::json> records = outbox_case_records(rig.options);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["auditID"], "bo-create");
  EXPECT_EQ(records[1]["auditID"], "ana-create");
  ASSERT_TRUE(log.close().ok());
  EXPECT_TRUE(outbox_case_verify(rig.options, root).ok());
}

// At start, the rows of the store's outbox table and the AuditOutbox objects
// an older allotd left (rows not yet in the log) are both appended and
// deleted; the rows of later requests take sequences after the highest one.
inline void case_table_and_older_rows_are_recovered(const StoreOpener& open_store,
                                                    const std::string& root) {
  OutboxRig rig(root);
  ASSERT_EQ(rig.open(open_store), "");
  WriteBatch left;  // what a killed allotd left, written around the outbox
  left.put_objects.push_back({std::string(kAuditOutboxKind), "old-create",
                              outbox_row_document(0, event_of("old", "create"))});
  left.append_audit_outbox.push_back(
      {7, "new-create", outbox_row_document(0, event_of("new", "create")), WorkloadId()});
  ASSERT_TRUE(rig.inner->commit(left).ok());
  ASSERT_EQ(outbox_rows_of(*rig.inner).size(), 2u);
  Result<StoredState> state = rig.store->load();  // recovers
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_TRUE(state->objects.empty());
  EXPECT_TRUE(state->audit_outbox.empty());
  EXPECT_TRUE(outbox_rows_of(*rig.inner).empty());
  const std::vector<nlohmann::json> records = outbox_case_records(rig.options);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["auditID"], "new-create");  // same afterSequence: by auditID
  EXPECT_EQ(records[1]["auditID"], "old-create");
  for (const nlohmann::json& record : records) EXPECT_EQ(record["stage"], "RequestReceived");
  {
    RequestScope scope(*rig.outbox, event_of("ana", "create"));
    ASSERT_TRUE(rig.store->commit(team_batch("vision")).ok());
  }
  Result<StoredState> after = rig.inner->load();
  ASSERT_TRUE(after.ok());
  ASSERT_EQ(after->audit_outbox.size(), 1u);
  EXPECT_EQ(after->audit_outbox[0].sequence, 8u);
  EXPECT_EQ(after->audit_outbox[0].audit_id, "ana-create");
  ASSERT_TRUE(rig.log->close().ok());
  EXPECT_TRUE(outbox_case_verify(rig.options, root).ok());
}

// A row in format 1 (named members: what an allotd before format 2 wrote),
// as nlohmann writes it, for the recovery of an older allotd's rows.
inline std::string format_one_row(uint64_t after_sequence, const governance::AuditEvent& event) {
  nlohmann::json row = {{"afterSequence", after_sequence},
                        {"auditID", event.audit_id},
                        {"stage", event.stage},
                        {"requestURI", event.request_uri},
                        {"verb", event.verb},
                        {"username", event.username},
                        {"groups", event.groups},
                        {"sourceIPs", event.source_ips},
                        {"responseCode", event.response_code},
                        {"responseMessage", event.response_message},
                        {"decision", event.decision},
                        {"reason", event.reason},
                        {"rbacRule", event.rbac_rule},
                        {"requestReceivedMs", event.request_received.ms()},
                        {"stageTimeMs", event.stage_time.ms()}};
  if (event.object_ref) {
    const governance::AuditObjectRef& ref = *event.object_ref;
    row["objectRef"] = {{"resource", ref.resource},
                        {"namespace", ref.namespace_name},
                        {"name", ref.name},
                        {"subresource", ref.subresource},
                        {"apiGroup", ref.api_group}};
  }
  return row.dump();
}

// Rows an allotd before format 2 left in the outbox table (format 1) are read
// at start with those of format 2, in commit order, and recovered alike.
inline void case_format_one_rows_are_recovered(const StoreOpener& open_store,
                                               const std::string& root) {
  OutboxRig rig(root);
  ASSERT_EQ(rig.open(open_store), "");
  governance::AuditEvent old_event = event_of("old", "create");
  old_event.reason = "because";
  WriteBatch left;  // what a killed allotd left, then started with format 2
  left.append_audit_outbox.push_back({3, "old-create", format_one_row(0, old_event), WorkloadId()});
  left.append_audit_outbox.push_back(
      {4, "new-create", outbox_row_document(0, event_of("new", "create")), WorkloadId()});
  ASSERT_TRUE(rig.inner->commit(left).ok());
  Result<StoredState> state = rig.store->load();  // recovers
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_TRUE(outbox_rows_of(*rig.inner).empty());
  const std::vector<nlohmann::json> records = outbox_case_records(rig.options);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0]["auditID"], "new-create");  // same afterSequence: by auditID
  EXPECT_EQ(records[1]["auditID"], "old-create");
  EXPECT_EQ(records[1]["user"]["username"], "old");
  EXPECT_EQ(records[1]["annotations"]["authorization.k8s.io/reason"], "because");
  for (const nlohmann::json& record : records) EXPECT_EQ(record["stage"], "RequestReceived");
  ASSERT_TRUE(rig.log->close().ok());
  EXPECT_TRUE(outbox_case_verify(rig.options, root).ok());
}

inline WriteBatch workload_batch(uint64_t id, const std::string& name) {
  WriteBatch batch;
  batch.put_workloads.push_back(
      {WorkloadId(id), "vision", name, "vision", WorkloadPhase::kPending, R"({"spec":{}})"});
  return batch;
}

// A workload create's row names the workload its batch puts (SQLite keeps
// it in that workload's row): killed after the commit, before the append,
// its record is recovered at restart like any row's, the workload is as it
// was put, and the next rows take sequences above the store's floor (the
// recovery's ranged delete), whatever the table holds.
inline void case_workload_create_row_is_recovered_and_rows_go_above_the_floor(
    const StoreOpener& open_store, const std::string& root) {
  const AuditLogOptions options = options_in(root);
  ASSERT_NO_FATAL_FAILURE(expect_killed_child([&] {
    OutboxRig rig(root);
    if (!rig.open(open_store).empty() || !rig.store->load().ok()) return 2;
    RequestScope scope(*rig.outbox, event_of("ana", "create"));
    if (!rig.store->commit(workload_batch(1, "train")).ok()) return 3;
    ::raise(SIGKILL);  // committed, not appended
    return 4;
  }));

  OutboxRig rig(root);
  ASSERT_EQ(rig.open(open_store), "");
  ASSERT_EQ(outbox_rows_of(*rig.inner).size(), 1u);
  Result<StoredState> state = rig.store->load();
  ASSERT_TRUE(state.ok()) << state.status().message();
  EXPECT_EQ(state->workloads, workload_batch(1, "train").put_workloads);
  const Result<StoredState> after = rig.inner->load();
  ASSERT_TRUE(after.ok());
  EXPECT_TRUE(after->audit_outbox.empty());
  EXPECT_GE(after->audit_outbox_floor, 1u);
  const std::vector<nlohmann::json> records = outbox_case_records(options);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_EQ(records[0]["auditID"], "ana-create");
  EXPECT_EQ(records[0]["stage"], "RequestReceived");
  {
    RequestScope scope(*rig.outbox, event_of("bo", "create"));
    ASSERT_TRUE(rig.store->commit(workload_batch(2, "tune")).ok());
    ASSERT_TRUE(rig.outbox->record(&scope, event_of("bo", "create")).ok());
  }
  ASSERT_TRUE(rig.log->checkpoint_if_due(true).ok());
  ASSERT_TRUE(rig.store->commit(team_batch("vision")).ok());  // deletes bo's row
  ASSERT_TRUE(rig.log->close().ok());
  const Result<StoredState> pruned = rig.inner->load();
  ASSERT_TRUE(pruned.ok());
  ASSERT_TRUE(pruned->audit_outbox.empty());
  ASSERT_GT(pruned->audit_outbox_floor, after->audit_outbox_floor);

  OutboxRig restarted(root);  // no row left: only the floor tells where rows go on
  rig.inner.reset();
  ASSERT_EQ(restarted.open(open_store), "");
  ASSERT_TRUE(restarted.store->load().ok());
  {
    RequestScope scope(*restarted.outbox, event_of("cy", "create"));
    ASSERT_TRUE(restarted.store->commit(workload_batch(3, "eval")).ok());
    const Result<StoredState> next = restarted.inner->load();
    ASSERT_TRUE(next.ok());
    ASSERT_EQ(next->audit_outbox.size(), 1u);
    EXPECT_GT(next->audit_outbox.front().sequence, pruned->audit_outbox_floor);
    ASSERT_TRUE(restarted.outbox->record(&scope, event_of("cy", "create")).ok());
  }
  ASSERT_TRUE(restarted.log->close().ok());
  const governance::VerificationReport report = outbox_case_verify(options, root);
  EXPECT_TRUE(report.ok()) << report.problems.front().message;
  EXPECT_EQ(report.records, 3u);
}

}  // namespace allot::audit::testing
