// ScimService (service/identity): the SCIM directory made durable resource by
// resource, its token, passwords kept only as Argon2id hashes, a failed
// commit undone, and the directory view authentication reads.
#include "service/identity/scim_service.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "identity/credentials/password_hash.h"
#include "identity/scim/scim_error.h"
#include "service/identity/scim_records.h"
#include "store/memory_store.h"

namespace allot {
namespace {

using json = nlohmann::json;
using scim::ResourceKind;

class CountingIds final : public scim::IdGenerator {
 public:
  std::string next_id() override { return "id-" + std::to_string(++count_); }

 private:
  int count_ = 0;
};

// A MemoryStore whose next commits fail while `failing` is set.
class FlakyStore final : public Store {
 public:
  Result<StoredState> load() override { return store_.load(); }
  Status commit(WriteBatch batch) override {
    ++commits;
    if (failing) return Status(ErrorCode::kUnavailable, "disk full");
    last = batch;
    return store_.commit(std::move(batch));
  }
  Result<std::vector<EventRecord>> events(WorkloadId id, uint64_t after = 0) override {
    return store_.events(id, after);
  }
  Result<std::vector<AllocationRecord>> allocations(int64_t from_ms, int64_t to_ms) override {
    return store_.allocations(from_ms, to_ms);
  }
  Result<std::vector<GpuUtilizationRecord>> gpu_utilization(int64_t from_ms,
                                                            int64_t to_ms) override {
    return store_.gpu_utilization(from_ms, to_ms);
  }
  std::vector<ObjectRecord> objects() { return store_.load().value().objects; }

  bool failing = false;
  int commits = 0;
  WriteBatch last;

 private:
  MemoryStore store_;
};

json user(const std::string& name) {
  return {{"schemas", {"urn:ietf:params:scim:schemas:core:2.0:User"}},
          {"userName", name},
          {"active", true}};
}

json group(const std::string& name, const std::vector<std::string>& members = {}) {
  json list = json::array();
  for (const std::string& id : members) list.push_back({{"value", id}});
  return {{"displayName", name}, {"members", list}};
}

json patch(const json& operations) {
  return {{"schemas", {"urn:ietf:params:scim:api:messages:2.0:PatchOp"}},
          {"Operations", operations}};
}

class ScimServiceTest : public ::testing::Test {
 protected:
  std::string create(ResourceKind kind, const json& body) {
    const Result<json> created = scim_.create(kind, body);
    EXPECT_TRUE(created.ok()) << created.status().to_string();
    return created.ok() ? created->value("id", "") : "";
  }
  // A second service on the same store, as after a restart.
  std::unique_ptr<ScimService> restarted() {
    auto again = std::make_unique<ScimService>(store_, clock_, ids_);
    const Status loaded = again->load(store_.objects());
    EXPECT_TRUE(loaded.ok()) << loaded.to_string();
    return again;
  }

  FlakyStore store_;
  ManualClock clock_{Timestamp::from_millis(1'764'660'000'000)};
  CountingIds ids_;
  ScimService scim_{store_, clock_, ids_};
};

TEST_F(ScimServiceTest, OnlyTheSCIMTokenPassesAndOnlyOnceEnabled) {
  EXPECT_EQ(scim_.authenticate("Bearer anything-at-all-0123").code(), ErrorCode::kNotFound);
  EXPECT_FALSE(scim_.enabled());
  EXPECT_EQ(scim_.enable("short").code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(scim_.enable("has a space in it 0123").code(), ErrorCode::kInvalidArgument);
  ASSERT_TRUE(scim_.enable("scim-token-0123456789").ok());
  EXPECT_TRUE(scim_.authenticate("Bearer scim-token-0123456789").ok());
  for (const char* wrong : {"", "scim-token-0123456789", "Bearer scim-token-012345678",
                            "Bearer scim-token-0123456789x", "Basic scim-token-0123456789"}) {
    const Status refused = scim_.authenticate(wrong);
    EXPECT_EQ(refused.code(), ErrorCode::kUnauthenticated) << wrong;
    EXPECT_EQ(refused.to_string().find("scim-token"), std::string::npos) << "never echoed";
  }
}

TEST_F(ScimServiceTest, EachWriteStoresOnlyTheResourcesItTouched) {
  const std::string ana = create(ResourceKind::kUser, user("ana@x.org"));
  ASSERT_EQ(store_.last.put_objects.size(), 1U);
  EXPECT_EQ(store_.last.put_objects[0].kind, kScimUserKind);
  EXPECT_EQ(store_.last.put_objects[0].name, ana);
  const std::string bo = create(ResourceKind::kUser, user("bo@x.org"));
  const std::string research = create(ResourceKind::kGroup, group("Research", {ana, bo}));
  create(ResourceKind::kGroup, group("Ops", {bo}));
  const int before = store_.commits;

  ASSERT_TRUE(scim_
                  .patch(ResourceKind::kUser, ana,
                         patch({{{"op", "replace"}, {"path", "displayName"}, {"value", "Ana"}}}))
                  .ok());
  EXPECT_EQ(store_.commits, before + 1);
  ASSERT_EQ(store_.last.put_objects.size(), 1U) << "not the whole directory";
  EXPECT_EQ(store_.last.put_objects[0].name, ana);

  // Deleting bo takes it out of both groups and retires its name, in one batch.
  ASSERT_TRUE(scim_.remove(ResourceKind::kUser, bo).ok());
  EXPECT_EQ(store_.last.delete_objects, (std::vector<ObjectKey>{{"ScimUser", bo}}));
  std::vector<std::string> puts;
  for (const ObjectRecord& object : store_.last.put_objects) {
    puts.push_back(object.kind + "/" + object.name);
  }
  EXPECT_EQ(puts, (std::vector<std::string>{"ScimGroup/" + research, "ScimGroup/id-4",
                                            "ScimRetiredUserName/bo@x.org"}));
  const std::unique_ptr<ScimService> again = restarted();
  const Result<json> stored = again->get(ResourceKind::kGroup, research, {});
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(stored->at("members").size(), 1U);
  EXPECT_EQ(again->get(ResourceKind::kUser, ana, {})->at("displayName"), "Ana");
  EXPECT_EQ(again->get(ResourceKind::kUser, bo, {}).status().code(), ErrorCode::kNotFound);
}

TEST_F(ScimServiceTest, CreationOrderAndMembershipSurviveARestart) {
  std::vector<std::string> ids;
  for (const char* name : {"c@x.org", "a@x.org", "b@x.org"}) {
    ids.push_back(create(ResourceKind::kUser, user(name)));
  }
  create(ResourceKind::kGroup, group("Research", {ids[2]}));
  const std::unique_ptr<ScimService> again = restarted();
  const json page = again->list(ResourceKind::kUser, {}).value();
  ASSERT_EQ(page["Resources"].size(), 3U);
  EXPECT_EQ(page["Resources"][0]["userName"], "c@x.org");
  EXPECT_EQ(page["Resources"][2]["userName"], "b@x.org");
  EXPECT_EQ(again->directory_view().standing("B@X.ORG"), (DirectoryStanding{true, {"Research"}}));
  // New users still come after the loaded ones.
  ASSERT_TRUE(again->create(ResourceKind::kUser, user("d@x.org")).ok());
  EXPECT_EQ(again->list(ResourceKind::kUser, {})->at("Resources")[3]["userName"], "d@x.org");
}

TEST_F(ScimServiceTest, AFailedCommitUndoesTheWriteAndIsUnavailable) {
  const std::string ana = create(ResourceKind::kUser, user("ana@x.org"));
  const std::string research = create(ResourceKind::kGroup, group("Research", {ana}));
  const json before = scim_.list(ResourceKind::kGroup, {}).value();
  store_.failing = true;

  const Result<json> created = scim_.create(ResourceKind::kUser, user("bo@x.org"));
  EXPECT_EQ(created.status().code(), ErrorCode::kUnavailable);
  EXPECT_EQ(ScimService::error_response(created.status()).http_status, 503);
  EXPECT_EQ(scim_.remove(ResourceKind::kUser, ana).code(), ErrorCode::kUnavailable);
  EXPECT_EQ(scim_.list(ResourceKind::kGroup, {}).value(), before) << "ana is still a member";
  EXPECT_EQ(scim_.directory_view().standing("ana@x.org"), (DirectoryStanding{true, {"Research"}}));
  EXPECT_FALSE(scim_.directory_view().standing("bo@x.org").has_value());
  store_.failing = false;
  EXPECT_TRUE(scim_.create(ResourceKind::kUser, user("bo@x.org")).ok()) << "the name is free";
}

TEST_F(ScimServiceTest, APasswordIsStoredOnlyAsItsArgon2idHash) {
  json body = user("ana@x.org");
  body["password"] = "c0rrect-h0rse";
  const Result<json> created = scim_.create(ResourceKind::kUser, body);
  ASSERT_TRUE(created.ok());
  EXPECT_FALSE(created->contains("password"));
  const std::string ana = created->value("id", "");
  for (const ObjectRecord& object : store_.objects()) {
    EXPECT_EQ(object.document.find("c0rrect-h0rse"), std::string::npos) << object.kind;
  }
  const std::optional<StoredPassword> stored = scim_.password_of("ANA@x.org");
  ASSERT_TRUE(stored.has_value());
  EXPECT_EQ(stored->user_name, "ana@x.org");
  EXPECT_TRUE(identity::verify_password(stored->hash, "c0rrect-h0rse"));

  // A PUT without a password keeps it; a PATCH (Okta's sync) replaces it.
  ASSERT_TRUE(scim_.replace(ResourceKind::kUser, ana, user("ana@x.org")).ok());
  EXPECT_TRUE(identity::verify_password(scim_.password_of("ana@x.org")->hash, "c0rrect-h0rse"));
  ASSERT_TRUE(scim_
                  .patch(ResourceKind::kUser, ana,
                         patch({{{"op", "replace"}, {"value", {{"password", "n3w-s3cret"}}}}}))
                  .ok());
  EXPECT_TRUE(identity::verify_password(restarted()->password_of("ana@x.org")->hash, "n3w-s3cret"));

  // Deactivated: no password to log in with; deleted: the hash goes too.
  ASSERT_TRUE(scim_
                  .patch(ResourceKind::kUser, ana,
                         patch({{{"op", "Replace"}, {"path", "active"}, {"value", "False"}}}))
                  .ok());
  EXPECT_FALSE(scim_.password_of("ana@x.org").has_value());
  ASSERT_TRUE(scim_.remove(ResourceKind::kUser, ana).ok());
  for (const ObjectRecord& object : store_.objects()) EXPECT_NE(object.kind, kLocalPasswordKind);
}

TEST_F(ScimServiceTest, AnEmptyOrHugePasswordIsAnInvalidValueAndChangesNothing) {
  json body = user("ana@x.org");
  body["password"] = std::string(5000, 'p');
  const Result<json> created = scim_.create(ResourceKind::kUser, body);
  EXPECT_EQ(scim::scim_type_of(created.status()), scim::ScimType::kInvalidValue);
  EXPECT_EQ(store_.commits, 0);
  EXPECT_EQ(scim_.list(ResourceKind::kUser, {})->at("totalResults"), 0);
}

TEST_F(ScimServiceTest, DeactivatedDeletedAndRenamedUsersStandRefused) {
  const std::string ana = create(ResourceKind::kUser, user("ana@x.org"));
  const std::string bo = create(ResourceKind::kUser, user("bo@x.org"));
  const std::string admins = create(ResourceKind::kGroup, group("platform-admins", {ana}));
  const DirectoryView& view = scim_.directory_view();
  EXPECT_EQ(view.standing("ana@x.org"), (DirectoryStanding{true, {"platform-admins"}}));
  EXPECT_FALSE(view.standing("admin").has_value()) << "never known: the directory says nothing";

  // Membership changes count at once.
  ASSERT_TRUE(scim_
                  .patch(ResourceKind::kGroup, admins,
                         patch({{{"op", "Remove"}, {"path", "members[value eq \"" + ana + "\"]"}}}))
                  .ok());
  EXPECT_EQ(view.standing("ana@x.org"), (DirectoryStanding{true, {}}));

  ASSERT_TRUE(scim_
                  .patch(ResourceKind::kUser, ana,
                         patch({{{"op", "Replace"}, {"value", {{"active", "False"}}}}}))
                  .ok());
  EXPECT_FALSE(view.standing("ana@x.org")->active);
  ASSERT_TRUE(scim_.remove(ResourceKind::kUser, ana).ok());
  EXPECT_FALSE(view.standing("ana@x.org")->active) << "deleted: refused, not unknown";
  ASSERT_TRUE(scim_
                  .patch(ResourceKind::kUser, bo,
                         patch({{{"op", "replace"}, {"path", "userName"}, {"value", "bob@x.org"}}}))
                  .ok());
  EXPECT_FALSE(view.standing("bo@x.org")->active) << "the old name of a renamed user";
  EXPECT_TRUE(view.standing("bob@x.org")->active);
  // That survives a restart, and a new user of the name has it again.
  const std::unique_ptr<ScimService> again = restarted();
  EXPECT_FALSE(again->directory_view().standing("ana@x.org")->active);
  ASSERT_TRUE(again->create(ResourceKind::kUser, user("Ana@x.org")).ok());
  EXPECT_TRUE(again->directory_view().standing("ana@x.org")->active);
  EXPECT_TRUE(restarted()->directory_view().standing("ana@x.org")->active);
}

TEST_F(ScimServiceTest, ABadStoredRecordIsAnErrorThatNamesIt) {
  const std::string ana = create(ResourceKind::kUser, user("ana@x.org"));
  const std::vector<ObjectRecord> good = store_.objects();
  const std::vector<std::pair<ObjectRecord, std::string>> bad = {
      {{"ScimUser", "u9", "not json"}, "ScimUser/u9"},
      {{"ScimUser", "u9", R"({"sequence": 9, "resource": {"id": "other"}})"}, "ScimUser/u9"},
      {{"ScimGroup", "g9", R"({"sequence": 9, "resource": {"id": "g9", "displayName": 4,
                                "meta": {}}})"},
       "g9"},
      {{"LocalPassword", ana, R"({"hash": 7, "secret": "hunter2"})"}, "LocalPassword/" + ana}};
  for (const auto& [record, named] : bad) {
    std::vector<ObjectRecord> objects = good;
    objects.push_back(record);
    ScimService again(store_, clock_, ids_);
    const Status loaded = again.load(objects);
    EXPECT_EQ(loaded.code(), ErrorCode::kInvalidArgument) << record.document;
    EXPECT_NE(loaded.to_string().find(named), std::string::npos) << loaded.to_string();
    EXPECT_EQ(loaded.to_string().find("hunter2"), std::string::npos);
  }
}

}  // namespace
}  // namespace allot
