// The in-memory directory: create and uniqueness (409), lookups by filter,
// pagination under concurrent inserts, soft delete, membership, passwords,
// atomic PATCH and the persisted state.
#include "identity/scim/scim_directory.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "identity/scim/scim_error.h"

namespace allot::scim {
namespace {

using json = nlohmann::json;

class CountingIds final : public IdGenerator {
 public:
  std::string next_id() override { return "id-" + std::to_string(++count_); }

 private:
  int count_ = 0;
};

constexpr Timestamp kT0 = Timestamp::from_millis(1'764'660'000'000);  // 2025-12-02T07:20:00Z

json user_body(const std::string& user_name) {
  return {{"schemas", {"urn:ietf:params:scim:schemas:core:2.0:User"}},
          {"userName", user_name},
          {"active", true},
          {"emails", {{{"value", user_name}, {"type", "work"}, {"primary", true}}}}};
}

json group_body(const std::string& name, const std::vector<std::string>& members = {}) {
  json list = json::array();
  for (const std::string& id : members) list.push_back({{"value", id}});
  return {{"schemas", {"urn:ietf:params:scim:schemas:core:2.0:Group"}},
          {"displayName", name},
          {"members", list}};
}

class ScimDirectoryTest : public testing::Test {
 protected:
  std::string create_user(const std::string& user_name) {
    const Result<WriteResult> created =
        directory_.create(ResourceKind::kUser, user_body(user_name), kT0);
    EXPECT_TRUE(created.ok()) << created.status().to_string();
    return created.ok() ? created->resource["id"].get<std::string>() : "";
  }
  std::string create_group(const std::string& name, const std::vector<std::string>& members = {}) {
    const Result<WriteResult> created =
        directory_.create(ResourceKind::kGroup, group_body(name, members), kT0);
    EXPECT_TRUE(created.ok()) << created.status().to_string();
    return created.ok() ? created->resource["id"].get<std::string>() : "";
  }
  std::vector<std::string> user_names(const ListQuery& query) {
    const Result<ListResponse> page = directory_.list(ResourceKind::kUser, query);
    EXPECT_TRUE(page.ok()) << page.status().to_string();
    std::vector<std::string> names;
    if (page.ok()) {
      for (const json& user : page->resources) names.push_back(user["userName"]);
    }
    return names;
  }

  CountingIds ids_;
  ScimDirectory directory_{ids_, DirectoryOptions{"https://allot.example/scim/v2", 2, 3}};
};

TEST_F(ScimDirectoryTest, CreateGivesIdAndMeta) {
  const Result<WriteResult> created =
      directory_.create(ResourceKind::kUser, user_body("ana@x.org"), kT0);
  ASSERT_TRUE(created.ok()) << created.status().to_string();
  const json& user = created->resource;
  EXPECT_EQ(user["id"], "id-1");
  EXPECT_EQ(user["meta"]["resourceType"], "User");
  EXPECT_EQ(user["meta"]["created"], "2025-12-02T07:20:00.000Z");
  EXPECT_EQ(user["meta"]["lastModified"], "2025-12-02T07:20:00.000Z");
  EXPECT_EQ(user["meta"]["location"], "https://allot.example/scim/v2/Users/id-1");
  EXPECT_EQ(user["meta"]["version"], "W/\"1\"");
  const Result<json> fetched = directory_.get(ResourceKind::kUser, "id-1");
  ASSERT_TRUE(fetched.ok());
  EXPECT_EQ(*fetched, user);
  EXPECT_EQ(directory_.get(ResourceKind::kGroup, "id-1").status().code(), ErrorCode::kNotFound);
}

TEST_F(ScimDirectoryTest, UserNameIsUniqueIgnoringCase) {
  create_user("ana@x.org");
  const Result<WriteResult> again =
      directory_.create(ResourceKind::kUser, user_body("ANA@X.ORG"), kT0);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status().code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(scim_type_of(again.status()), ScimType::kUniqueness);
  const ScimErrorResponse response = scim_error_response(again.status());
  EXPECT_EQ(response.http_status, 409);
  EXPECT_EQ(response.body["status"], "409");
  EXPECT_EQ(response.body["scimType"], "uniqueness");
  // Renaming another user onto the name is refused as well; its own name is fine.
  const std::string bo = create_user("bo@x.org");
  EXPECT_EQ(scim_type_of(
                directory_.replace(ResourceKind::kUser, bo, user_body("Ana@x.org"), kT0).status()),
            ScimType::kUniqueness);
  EXPECT_TRUE(directory_.replace(ResourceKind::kUser, bo, user_body("BO@x.org"), kT0).ok());
}

TEST_F(ScimDirectoryTest, GroupDisplayNameIsUnique) {
  create_group("Research");
  const Result<WriteResult> again =
      directory_.create(ResourceKind::kGroup, group_body("research"), kT0);
  EXPECT_EQ(scim_type_of(again.status()), ScimType::kUniqueness);
}

TEST_F(ScimDirectoryTest, UserNameFilterFindsTheUserWhateverTheCase) {
  create_user("bo@x.org");
  const std::string ana = create_user("ana@x.org");
  ListQuery query;
  query.filter = R"(userName eq "ANA@X.ORG")";
  const Result<ListResponse> page = directory_.list(ResourceKind::kUser, query);
  ASSERT_TRUE(page.ok());
  EXPECT_EQ(page->total_results, 1);
  ASSERT_EQ(page->resources.size(), 1U);
  EXPECT_EQ(page->resources[0]["id"], ana);
  // A filter the index does not answer gives the same.
  query.filter = R"(userName eq "ANA@X.ORG" and active eq true)";
  EXPECT_EQ(user_names(query), std::vector<std::string>{"ana@x.org"});
  query.filter = R"(userName eq "nobody@x.org")";
  EXPECT_TRUE(user_names(query).empty());
  query.filter = R"(userName eq)";
  EXPECT_EQ(scim_type_of(directory_.list(ResourceKind::kUser, query).status()),
            ScimType::kInvalidFilter);
  EXPECT_EQ(directory_.find_user_id("Ana@X.org"), ana);
}

TEST_F(ScimDirectoryTest, PagesAreStableWhileUsersAreCreated) {
  for (const char* name : {"u1", "u2", "u3", "u4", "u5"}) create_user(name);
  // Page size 2 (the default here); between pages, new users arrive.
  std::vector<std::string> seen;
  ListQuery query;
  for (int64_t start = 1; start <= 5; start += 2) {
    query.start_index = start;
    for (const std::string& name : user_names(query)) seen.push_back(name);
    create_user("late" + std::to_string(start));
  }
  const std::vector<std::string> expected = {"u1", "u2", "u3", "u4", "u5"};
  EXPECT_EQ(std::vector<std::string>(seen.begin(), seen.begin() + 5), expected);
  EXPECT_EQ(std::set<std::string>(seen.begin(), seen.end()).size(), seen.size());  // no duplicate
  // totalResults counts what exists now: 5 + 3 late ones.
  EXPECT_EQ(directory_.list(ResourceKind::kUser, {}).value().total_results, 8);
}

TEST_F(ScimDirectoryTest, PagingParametersAreClamped) {
  for (const char* name : {"u1", "u2", "u3", "u4", "u5"}) create_user(name);
  ListQuery query;
  query.count = 100;  // above the maximum of 3
  EXPECT_EQ(user_names(query), (std::vector<std::string>{"u1", "u2", "u3"}));
  query.start_index = -4;  // below 1 means 1
  query.count = 1;
  EXPECT_EQ(user_names(query), std::vector<std::string>{"u1"});
  query.count = -1;  // negative means 0: only the total
  EXPECT_TRUE(user_names(query).empty());
  EXPECT_EQ(directory_.list(ResourceKind::kUser, query).value().total_results, 5);
  query.start_index = 5;
  query.count = 3;
  EXPECT_EQ(user_names(query), std::vector<std::string>{"u5"});
  query.start_index = 9;
  const json body = directory_.list(ResourceKind::kUser, query).value().to_json();
  EXPECT_EQ(body["totalResults"], 5);
  EXPECT_EQ(body["itemsPerPage"], 0);
  EXPECT_EQ(body["startIndex"], 9);
  EXPECT_EQ(body["Resources"], json::array());
}

TEST_F(ScimDirectoryTest, DeactivatedUsersStayButCannotAuthenticate) {
  const std::string ana = create_user("ana@x.org");
  EXPECT_TRUE(directory_.is_active(ana));
  const Result<WriteResult> patched = directory_.patch(
      ResourceKind::kUser, ana,
      json::parse(R"({"Operations": [{"op": "Replace", "path": "active", "value": "False"}]})"),
      kT0 + Duration::seconds(5));
  ASSERT_TRUE(patched.ok()) << patched.status().to_string();
  EXPECT_FALSE(directory_.is_active(ana));
  EXPECT_EQ(patched->resource["active"], false);
  EXPECT_EQ(patched->resource["meta"]["version"], "W/\"2\"");
  EXPECT_EQ(patched->resource["meta"]["lastModified"], "2025-12-02T07:20:05.000Z");
  EXPECT_EQ(patched->resource["meta"]["created"], "2025-12-02T07:20:00.000Z");
  ListQuery query;
  query.filter = "active eq false";
  EXPECT_EQ(user_names(query), std::vector<std::string>{"ana@x.org"});
  EXPECT_TRUE(directory_.get(ResourceKind::kUser, ana).ok());
  EXPECT_FALSE(directory_.is_active("no-such-user"));
}

TEST_F(ScimDirectoryTest, MembershipGivesGroupsOfAUserAndDeleteRemovesIt) {
  const std::string ana = create_user("ana@x.org");
  const std::string bo = create_user("bo@x.org");
  const std::string research = create_group("Research", {ana, bo});
  create_group("Ops", {bo});
  const std::string admins = create_group("Admins", {ana});
  EXPECT_EQ(directory_.groups_of(ana), (std::vector<std::string>{"Research", "Admins"}));
  EXPECT_EQ(directory_.members_of(research).value(), (std::vector<std::string>{ana, bo}));
  // A user's representation lists its groups (read-only, computed).
  const json user = directory_.get(ResourceKind::kUser, ana).value();
  ASSERT_EQ(user["groups"].size(), 2U);
  EXPECT_EQ(user["groups"][0]["value"], research);
  EXPECT_EQ(user["groups"][0]["display"], "Research");
  EXPECT_EQ(user["groups"][1]["value"], admins);

  ASSERT_TRUE(directory_.remove(ResourceKind::kUser, ana, kT0).ok());
  EXPECT_TRUE(directory_.groups_of(ana).empty());
  EXPECT_EQ(directory_.members_of(research).value(), std::vector<std::string>{bo});
  EXPECT_TRUE(directory_.members_of(admins).value().empty());
  EXPECT_EQ(directory_.get(ResourceKind::kUser, ana).status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(directory_.remove(ResourceKind::kUser, ana, kT0).status().code(), ErrorCode::kNotFound);
  // Its name is free again, and a new user comes after every existing one.
  EXPECT_FALSE(create_user("ANA@x.org").empty());
  EXPECT_EQ(user_names({}), (std::vector<std::string>{"bo@x.org", "ANA@x.org"}));
}

TEST_F(ScimDirectoryTest, MembersMustExistAndExcludedAttributesHidesThem) {
  const std::string ana = create_user("ana@x.org");
  const Result<WriteResult> unknown =
      directory_.create(ResourceKind::kGroup, group_body("Research", {ana, "ghost"}), kT0);
  EXPECT_EQ(scim_type_of(unknown.status()), ScimType::kInvalidValue);
  const std::string research = create_group("Research", {ana});
  const json full = directory_.get(ResourceKind::kGroup, research).value();
  EXPECT_EQ(full["members"], json::parse(R"([{"value": ")" + ana + R"(", "type": "User"}])"));
  const json without =
      directory_.get(ResourceKind::kGroup, research, AttributeSelection{{}, {"members"}}).value();
  EXPECT_FALSE(without.contains("members"));
  EXPECT_EQ(without["displayName"], "Research");
  ListQuery query;
  query.filter = R"(displayName eq "research")";
  query.selection = AttributeSelection::from_parameters("", "members");
  const ListResponse page = directory_.list(ResourceKind::kGroup, query).value();
  ASSERT_EQ(page.resources.size(), 1U);
  EXPECT_FALSE(page.resources[0].contains("members"));
  // attributes=displayName: that, id and schemas only.
  const json only_name = directory_
                             .get(ResourceKind::kGroup, research,
                                  AttributeSelection::from_parameters("displayName", ""))
                             .value();
  EXPECT_EQ(only_name, (json{{"id", research},
                             {"displayName", "Research"},
                             {"schemas", {"urn:ietf:params:scim:schemas:core:2.0:Group"}}}));
}

TEST_F(ScimDirectoryTest, APasswordIsHandedOutOnceAndNeverStoredOrReturned) {
  json body = user_body("ana@x.org");
  body["password"] = "t0p-s3cret";
  const Result<WriteResult> created = directory_.create(ResourceKind::kUser, body, kT0);
  ASSERT_TRUE(created.ok());
  EXPECT_EQ(created->password, "t0p-s3cret");
  const std::string id = created->resource["id"];
  const Result<WriteResult> replaced = directory_.replace(ResourceKind::kUser, id, body, kT0);
  ASSERT_TRUE(replaced.ok());
  EXPECT_EQ(replaced->password, "t0p-s3cret");
  const Result<WriteResult> patched = directory_.patch(
      ResourceKind::kUser, id,
      json::parse(
          R"({"Operations": [{"op": "replace", "path": "password", "value": "n3w-s3cret"}]})"),
      kT0);
  ASSERT_TRUE(patched.ok());
  EXPECT_EQ(patched->password, "n3w-s3cret");
  // A write without a password hands none out.
  EXPECT_FALSE(directory_.replace(ResourceKind::kUser, id, user_body("ana@x.org"), kT0)
                   .value()
                   .password.has_value());
  // Nowhere to be found: responses, lists, the persisted state.
  ListQuery all;
  all.filter = "password pr";
  EXPECT_TRUE(user_names(all).empty());
  for (const std::string& text :
       {created->resource.dump(), replaced->resource.dump(), patched->resource.dump(),
        directory_.get(ResourceKind::kUser, id).value().dump(),
        directory_.list(ResourceKind::kUser, {}).value().to_json().dump(),
        json(directory_.records().back().resource).dump()}) {
    EXPECT_EQ(text.find("s3cret"), std::string::npos) << text;
    EXPECT_EQ(text.find("password"), std::string::npos) << text;
  }
}

TEST_F(ScimDirectoryTest, AFailedPatchChangesNothing) {
  const std::string ana = create_user("ana@x.org");
  const json before = directory_.get(ResourceKind::kUser, ana).value();
  const Result<WriteResult> failed = directory_.patch(ResourceKind::kUser, ana, json::parse(R"({
      "Operations": [{"op": "replace", "path": "displayName", "value": "Ana"},
                     {"op": "replace", "path": "meta.version", "value": "W/\"9\""}]})"),
                                                      kT0 + Duration::seconds(1));
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(scim_type_of(failed.status()), ScimType::kMutability);
  EXPECT_EQ(directory_.get(ResourceKind::kUser, ana).value(), before);
  // A patch that would take another user's name changes nothing either.
  create_user("bo@x.org");
  const Result<WriteResult> clash = directory_.patch(ResourceKind::kUser, ana, json::parse(R"({
      "Operations": [{"op": "replace", "path": "displayName", "value": "Ana"},
                     {"op": "replace", "path": "userName", "value": "BO@x.org"}]})"),
                                                     kT0);
  EXPECT_EQ(scim_type_of(clash.status()), ScimType::kUniqueness);
  EXPECT_EQ(directory_.get(ResourceKind::kUser, ana).value(), before);
}

TEST_F(ScimDirectoryTest, ReplaceKeepsIdAndCreatedAndIgnoresReadOnlyInput) {
  const std::string ana = create_user("ana@x.org");
  json body = user_body("ana@x.org");
  body["id"] = "forged";
  body["meta"] = {{"created", "1999-01-01T00:00:00Z"}};
  body["displayName"] = "Ana";
  const Result<WriteResult> replaced =
      directory_.replace(ResourceKind::kUser, ana, body, kT0 + Duration::minutes(1));
  ASSERT_TRUE(replaced.ok());
  EXPECT_EQ(replaced->resource["id"], ana);
  EXPECT_EQ(replaced->resource["displayName"], "Ana");
  EXPECT_EQ(replaced->resource["meta"]["created"], "2025-12-02T07:20:00.000Z");
  EXPECT_EQ(replaced->resource["meta"]["lastModified"], "2025-12-02T07:21:00.000Z");
  EXPECT_EQ(directory_.get(ResourceKind::kUser, "forged").status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(directory_.replace(ResourceKind::kUser, "ghost", body, kT0).status().code(),
            ErrorCode::kNotFound);
}

TEST_F(ScimDirectoryTest, RecordsRoundTripResourceByResource) {
  const std::string ana = create_user("ana@x.org");
  create_user("bo@x.org");
  const std::string research = create_group("Research", {ana});
  ASSERT_TRUE(directory_.remove(ResourceKind::kUser, create_user("gone@x.org"), kT0).ok());
  const std::vector<StoredResource> records = directory_.records();
  ASSERT_EQ(records.size(), 3U);
  EXPECT_EQ(records[2].kind, ResourceKind::kGroup);
  EXPECT_EQ(records[2].resource["id"], research);
  EXPECT_FALSE(records[0].resource.contains("groups")) << "computed, never stored";

  // Loaded in any order: the sequences give the creation order back.
  std::vector<StoredResource> shuffled(records.rbegin(), records.rend());
  Result<ScimDirectory> loaded = ScimDirectory::from_records(shuffled, ids_);
  ASSERT_TRUE(loaded.ok()) << loaded.status().to_string();
  EXPECT_EQ(loaded->records(), records);
  EXPECT_EQ(loaded->groups_of(ana), std::vector<std::string>{"Research"});
  EXPECT_EQ(loaded->get(ResourceKind::kUser, ana).value()["groups"][0]["value"], research);
  EXPECT_TRUE(loaded->find_user_id("BO@X.ORG").has_value());
  // New resources still come after the loaded ones, and names stay unique.
  const Result<WriteResult> cy = loaded->create(ResourceKind::kUser, user_body("cy@x.org"), kT0);
  ASSERT_TRUE(cy.ok());
  EXPECT_GT(cy->change.resources[0].sequence, records.back().sequence);
  EXPECT_EQ(loaded->list(ResourceKind::kUser, {}).value().resources.back()["userName"], "cy@x.org");
  EXPECT_EQ(scim_type_of(loaded->create(ResourceKind::kUser, user_body("ANA@x.org"), kT0).status()),
            ScimType::kUniqueness);
}

TEST_F(ScimDirectoryTest, RecordsThatNoWriteProducedAreRefused) {
  create_user("ana@x.org");
  const std::vector<StoredResource> good = directory_.records();
  std::vector<std::vector<StoredResource>> bad(5, good);
  bad[0].push_back(good[0]);         // the same id twice
  bad[1][0].sequence = 0;            // no sequence
  bad[2][0].resource.erase("meta");  // not written by the directory
  bad[3][0].resource["userName"] = 7;
  bad[4][0].resource["password"] = "s3cret";  // never stored
  for (const std::vector<StoredResource>& records : bad) {
    const Result<ScimDirectory> loaded = ScimDirectory::from_records(records, ids_);
    EXPECT_EQ(loaded.status().code(), ErrorCode::kInvalidArgument);
    EXPECT_EQ(loaded.status().to_string().find("s3cret"), std::string::npos);
  }
  StoredResource twin = good[0];
  twin.sequence = 9;
  twin.resource["id"] = "other";
  twin.resource["userName"] = "ANA@x.org";  // the same name
  EXPECT_FALSE(ScimDirectory::from_records({good[0], twin}, ids_).ok());
}

TEST_F(ScimDirectoryTest, AWriteReportsEachResourceItTouched) {
  const Result<WriteResult> created =
      directory_.create(ResourceKind::kUser, user_body("ana@x.org"), kT0);
  ASSERT_TRUE(created.ok());
  const std::string ana = created->resource["id"];
  ASSERT_EQ(created->change.resources.size(), 1U);
  const ResourceChange& made = created->change.resources[0];
  EXPECT_EQ(made.kind, ResourceKind::kUser);
  EXPECT_EQ(made.id, ana);
  EXPECT_FALSE(made.before.has_value());
  EXPECT_EQ(made.after, directory_.records()[0].resource);

  const std::string research = create_group("Research", {ana});
  const std::string ops = create_group("Ops", {ana});
  create_group("Idle");
  const Result<WriteResult> renamed = directory_.patch(
      ResourceKind::kGroup, research,
      json::parse(R"({"Operations": [{"op": "replace", "value": {"displayName": "R&D"}}]})"), kT0);
  ASSERT_TRUE(renamed.ok());
  ASSERT_EQ(renamed->change.resources.size(), 1U);
  EXPECT_EQ((*renamed->change.resources[0].before)["displayName"], "Research");
  EXPECT_EQ((*renamed->change.resources[0].after)["displayName"], "R&D");

  // Deleting a user touches it and each group that listed it, nothing else.
  const Result<DirectoryChange> removed = directory_.remove(ResourceKind::kUser, ana, kT0);
  ASSERT_TRUE(removed.ok());
  ASSERT_EQ(removed->resources.size(), 3U);
  EXPECT_EQ(removed->resources[0].id, ana);
  EXPECT_FALSE(removed->resources[0].after.has_value());
  std::set<std::string> groups;
  for (size_t i = 1; i < 3; ++i) {
    groups.insert(removed->resources[i].id);
    EXPECT_EQ((*removed->resources[i].after)["members"], json::array());
    EXPECT_EQ((*removed->resources[i].before)["members"].size(), 1U);
  }
  EXPECT_EQ(groups, (std::set<std::string>{research, ops}));
}

TEST_F(ScimDirectoryTest, RevertUndoesAWriteWholly) {
  const std::string ana = create_user("ana@x.org");
  const std::string research = create_group("Research", {ana});
  const std::vector<StoredResource> before = directory_.records();

  const Result<WriteResult> created =
      directory_.create(ResourceKind::kUser, user_body("bo@x.org"), kT0);
  directory_.revert(created->change);
  EXPECT_EQ(directory_.records(), before);
  EXPECT_FALSE(directory_.find_user_id("bo@x.org").has_value());

  const Result<WriteResult> patched =
      directory_.patch(ResourceKind::kGroup, research,
                       json::parse(R"({"Operations": [{"op": "remove", "path": "members"},
                                     {"op": "replace", "path": "displayName", "value": "X"}]})"),
                       kT0);
  ASSERT_TRUE(patched.ok());
  EXPECT_TRUE(directory_.groups_of(ana).empty());
  directory_.revert(patched->change);
  EXPECT_EQ(directory_.records(), before);
  EXPECT_EQ(directory_.groups_of(ana), std::vector<std::string>{"Research"});

  const Result<DirectoryChange> removed = directory_.remove(ResourceKind::kUser, ana, kT0);
  ASSERT_TRUE(removed.ok());
  directory_.revert(*removed);
  EXPECT_EQ(directory_.records(), before);
  EXPECT_EQ(directory_.groups_of(ana), std::vector<std::string>{"Research"});
  EXPECT_EQ(
      scim_type_of(directory_.create(ResourceKind::kUser, user_body("ANA@x.org"), kT0).status()),
      ScimType::kUniqueness)
      << "the name index came back too";
}

TEST_F(ScimDirectoryTest, ThousandsOfMembersAreAddedAndRemovedInOneRequest) {
  std::vector<std::string> users;
  json add = json::array();
  for (int i = 0; i < 3000; ++i) {
    users.push_back(create_user("u" + std::to_string(i)));
    add.push_back({{"value", users.back()}});
  }
  const std::string group = create_group("Big", {users[0]});
  // Entra's form; the one already there is not listed twice.
  const Result<WriteResult> added =
      directory_.patch(ResourceKind::kGroup, group,
                       json{{"schemas", {"urn:ietf:params:scim:api:messages:2.0:PatchOp"}},
                            {"Operations", {{{"op", "Add"}, {"path", "members"}, {"value", add}}}}},
                       kT0);
  ASSERT_TRUE(added.ok()) << added.status().to_string();
  EXPECT_EQ(directory_.members_of(group).value().size(), 3000U);
  EXPECT_EQ(directory_.groups_of(users[2999]), std::vector<std::string>{"Big"});
  const json remove = json::array({{{"value", users[5]}}, {{"value", users[7]}}});
  ASSERT_TRUE(
      directory_
          .patch(ResourceKind::kGroup, group,
                 json{{"Operations", {{{"op", "Remove"}, {"path", "members"}, {"value", remove}}}}},
                 kT0)
          .ok());
  const std::vector<std::string> members = directory_.members_of(group).value();
  EXPECT_EQ(members.size(), 2998U);
  EXPECT_EQ(members[5], users[6]) << "the order of the rest is kept";
  EXPECT_TRUE(directory_.groups_of(users[7]).empty());
}

TEST_F(ScimDirectoryTest, AnIdLookupInsideAnAndStillAppliesTheWholeFilter) {
  const std::string ana = create_user("ana@x.org");
  const std::string bo = create_user("bo@x.org");
  const std::string research = create_group("Research", {ana});
  ListQuery query;
  // Entra's membership check.
  query.filter = "id eq \"" + research + "\" and members[value eq \"" + ana + "\"]";
  EXPECT_EQ(directory_.list(ResourceKind::kGroup, query).value().total_results, 1);
  query.filter = "id eq \"" + research + "\" and members[value eq \"" + bo + "\"]";
  EXPECT_EQ(directory_.list(ResourceKind::kGroup, query).value().total_results, 0);
  query.filter = R"(members[value eq "x"] and displayName eq "RESEARCH")";
  EXPECT_EQ(directory_.list(ResourceKind::kGroup, query).value().total_results, 0);
}

}  // namespace
}  // namespace allot::scim
