// PATCH in the exact shapes Microsoft Entra ID (both its dialects) and Okta
// send, each with the resource it must produce; the three ways to remove a
// group member; and the errors, with their scimType.
#include "identity/scim/scim_patch.h"

#include <string>

#include <gtest/gtest.h>

#include "identity/scim/scim_error.h"
#include "identity/scim/scim_resource.h"

namespace allot::scim {
namespace {

using json = nlohmann::json;

constexpr const char* kEnterprise = "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User";

// A stored user, as the directory keeps it (normalized, with id and meta).
json ana() {
  return json::parse(R"({
    "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"],
    "id": "u1",
    "userName": "ana@contoso.com",
    "name": {"givenName": "Anna", "familyName": "Lima"},
    "active": true,
    "emails": [{"value": "ana@contoso.com", "type": "work", "primary": true}],
    "meta": {"resourceType": "User", "version": "W/\"1\""}
  })");
}

json research() {
  return json::parse(R"({
    "schemas": ["urn:ietf:params:scim:schemas:core:2.0:Group"],
    "id": "g1",
    "displayName": "Research",
    "members": [{"value": "u1", "type": "User"}, {"value": "u2", "type": "User"}],
    "meta": {"resourceType": "Group", "version": "W/\"4\""}
  })");
}

json patch_request(const char* operations) {
  return json::parse(R"({"schemas": ["urn:ietf:params:scim:api:messages:2.0:PatchOp"],
                         "Operations": )" +
                     std::string(operations) + "}");
}

json patched(ResourceKind kind, const json& resource, const char* operations) {
  const Result<PatchResult> result = apply_patch(kind, resource, patch_request(operations));
  EXPECT_TRUE(result.ok()) << operations << ": " << result.status().to_string();
  return result.ok() ? result->resource : json();
}

Status patch_error(ResourceKind kind, const json& resource, const char* operations) {
  const Result<PatchResult> result = apply_patch(kind, resource, patch_request(operations));
  EXPECT_FALSE(result.ok()) << operations << " gave "
                            << (result.ok() ? result->resource.dump() : "");
  return result.status();
}

TEST(ScimPatchEntra, PathPerOperationWithCapitalisedOpsAndStringBooleans) {
  // Entra's default dialect: "Replace"/"Add", a boolean as the string "False",
  // a value-filtered email, the manager as a bare id.
  const json result = patched(ResourceKind::kUser, ana(), R"([
    {"op": "Replace", "path": "active", "value": "False"},
    {"op": "Add", "path": "emails[type eq \"work\"].value", "value": "ana.lima@contoso.com"},
    {"op": "Replace", "path": "name.givenName", "value": "Ana"},
    {"op": "Add", "path": "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department",
     "value": "R&D"},
    {"op": "Add", "path": "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager",
     "value": "mgr-7"}])");
  json expected = ana();
  expected["schemas"].push_back(kEnterprise);
  expected["active"] = false;  // a JSON boolean, not the string
  expected["emails"][0]["value"] = "ana.lima@contoso.com";
  expected["name"]["givenName"] = "Ana";
  expected[kEnterprise] = {{"department", "R&D"}, {"manager", {{"value", "mgr-7"}}}};
  EXPECT_EQ(result, expected);
}

TEST(ScimPatchEntra, ValueFilteredAddCreatesTheValueWhenNoneMatches) {
  json user = ana();
  user.erase("emails");
  const json result = patched(ResourceKind::kUser, user, R"([
    {"op": "Add", "path": "emails[type eq \"work\"].value", "value": "ana@contoso.com"},
    {"op": "Add", "path": "phoneNumbers[type eq \"mobile\"].value", "value": "+1 555 0100"}])");
  json expected = user;
  expected["emails"] = json::parse(R"([{"type": "work", "value": "ana@contoso.com"}])");
  expected["phoneNumbers"] = json::parse(R"([{"type": "mobile", "value": "+1 555 0100"}])");
  EXPECT_EQ(result, expected);
}

TEST(ScimPatchEntra, PathlessReplaceWhoseKeysArePaths) {
  // Entra with aadOptscim062020: one replace, no path, dotted and URN keys.
  const json result = patched(ResourceKind::kUser, ana(), R"([
    {"op": "replace", "value": {
      "active": false,
      "displayName": "Ana Lima",
      "name.givenName": "Ana",
      "emails[type eq \"work\"].value": "ana.lima@contoso.com",
      "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department": "R&D",
      "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber": "42"}}])");
  json expected = ana();
  expected["schemas"].push_back(kEnterprise);
  expected["active"] = false;
  expected["displayName"] = "Ana Lima";
  expected["name"]["givenName"] = "Ana";
  expected["emails"][0]["value"] = "ana.lima@contoso.com";
  expected[kEnterprise] = {{"department", "R&D"}, {"employeeNumber", "42"}};
  EXPECT_EQ(result, expected);
}

TEST(ScimPatchEntra, GroupMembersAddRemoveAndRename) {
  const json result = patched(ResourceKind::kGroup, research(), R"([
    {"op": "Add", "path": "members", "value": [{"value": "u3"}]},
    {"op": "Remove", "path": "members", "value": [{"value": "u1"}]},
    {"op": "Replace", "path": "displayName", "value": "Research Team"}])");
  json expected = research();
  expected["displayName"] = "Research Team";
  expected["members"] = json::parse(R"([{"value": "u2", "type": "User"}, {"value": "u3"}])");
  EXPECT_EQ(result, expected);
}

TEST(ScimPatchOkta, DeactivateWithPathlessReplace) {
  const json result =
      patched(ResourceKind::kUser, ana(), R"([{"op": "replace", "value": {"active": false}}])");
  json expected = ana();
  expected["active"] = false;
  EXPECT_EQ(result, expected);
}

TEST(ScimPatchOkta, RenameRepeatsTheGroupsOwnId) {
  // Okta sends the id along with the new name: the same id is accepted.
  const json result = patched(ResourceKind::kGroup, research(), R"([
    {"op": "replace", "value": {"id": "g1", "displayName": "Research Team"}}])");
  json expected = research();
  expected["displayName"] = "Research Team";
  EXPECT_EQ(result, expected);
  // Another id is a change of a read-only attribute.
  const Status changed = patch_error(ResourceKind::kGroup, research(), R"([
    {"op": "replace", "value": {"id": "g2", "displayName": "Research Team"}}])");
  EXPECT_EQ(scim_type_of(changed), ScimType::kMutability) << changed.to_string();
}

TEST(ScimPatchOkta, AddingAnExistingMemberDoesNotDuplicateIt) {
  const json result = patched(ResourceKind::kGroup, research(), R"([
    {"op": "add", "path": "members", "value": [{"value": "u2", "display": "bo@contoso.com"},
                                                {"value": "u4", "display": "di@contoso.com"}]}])");
  json expected = research();
  expected["members"] = json::parse(R"([{"value": "u1", "type": "User"},
      {"value": "u2", "type": "User", "display": "bo@contoso.com"},
      {"value": "u4", "display": "di@contoso.com"}])");
  EXPECT_EQ(result, expected);
}

// The three forms a member leaves a group by: each leaves exactly u2.
TEST(ScimPatchMembers, RemovalByValueListByFilterAndByReplace) {
  const json only_u2 = json::parse(R"([{"value": "u2", "type": "User"}])");
  for (const char* operations :
       {R"([{"op": "remove", "path": "members", "value": [{"value": "u1"}]}])",
        R"([{"op": "remove", "path": "members[value eq \"u1\"]"}])",
        R"([{"op": "remove", "path": "members", "value": ["u1"]}])",
        R"([{"op": "replace", "path": "members", "value": [{"value": "u2", "type": "User"}]}])"}) {
    json result = patched(ResourceKind::kGroup, research(), operations);
    EXPECT_EQ(result["members"], only_u2) << operations;
    EXPECT_EQ(result["displayName"], "Research") << operations;
  }
  // Removing every member leaves none (the attribute unassigned); removing
  // one that is not there changes nothing.
  EXPECT_FALSE(patched(ResourceKind::kGroup, research(), R"([{"op": "remove", "path": "members"}])")
                   .contains("members"));
  EXPECT_EQ(patched(ResourceKind::kGroup, research(),
                    R"([{"op": "remove", "path": "members[value eq \"u9\"]"}])"),
            research());
}

TEST(ScimPatch, ReplaceOfAComplexAttributeMergesItsSubAttributes) {
  const json result = patched(ResourceKind::kUser, ana(), R"([
    {"op": "replace", "path": "name", "value": {"givenName": "Ana"}}])");
  json expected = ana();
  expected["name"] = {{"givenName", "Ana"}, {"familyName", "Lima"}};
  EXPECT_EQ(result, expected);
}

TEST(ScimPatch, AttributeNamesAndOpsIgnoreCase) {
  const json result = patched(ResourceKind::kUser, ana(), R"([
    {"op": "REPLACE", "path": "NAME.GIVENNAME", "value": "Ana"},
    {"op": "rEmOvE", "path": "Emails[TYPE eq \"WORK\"]"}])");
  json expected = ana();
  expected["name"]["givenName"] = "Ana";
  expected.erase("emails");
  EXPECT_EQ(result, expected);
}

TEST(ScimPatch, APasswordIsHandedBackAndNotKept) {
  const Result<PatchResult> result =
      apply_patch(ResourceKind::kUser, ana(),
                  patch_request(R"([{"op": "replace", "value": {"password": "correct horse"}}])"));
  ASSERT_TRUE(result.ok()) << result.status().to_string();
  EXPECT_EQ(result->password, "correct horse");
  EXPECT_EQ(result->resource, ana());
  EXPECT_EQ(result->resource.dump().find("correct horse"), std::string::npos);
}

struct PatchErrorCase {
  const char* operations;
  ScimType type;
  const char* location;  // where the details say it broke
};

class ScimPatchError : public testing::TestWithParam<PatchErrorCase> {};

TEST_P(ScimPatchError, IsRefusedWithItsScimType) {
  const PatchErrorCase& c = GetParam();
  const Status status = patch_error(ResourceKind::kUser, ana(), c.operations);
  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument) << status.to_string();
  EXPECT_EQ(scim_type_of(status), c.type) << c.operations << ": " << status.to_string();
  EXPECT_EQ(scim_error_location(status), c.location) << status.to_string();
}

INSTANTIATE_TEST_SUITE_P(
    Errors, ScimPatchError,
    testing::Values(
        PatchErrorCase{R"([{"op": "replace", "path": "id", "value": "u9"}])", ScimType::kMutability,
                       "Operations[0]"},
        PatchErrorCase{
            R"([{"op": "add", "path": "meta.created", "value": "2020-01-01T00:00:00Z"}])",
            ScimType::kMutability, "Operations[0]"},
        PatchErrorCase{R"([{"op": "remove", "path": "groups"}])", ScimType::kMutability,
                       "Operations[0]"},
        PatchErrorCase{R"([{"op": "replace", "path": "nickname", "value": "A"},
                      {"op": "replace", "path": "shoeSize", "value": "42"}])",
                       ScimType::kInvalidPath, "Operations[1]"},
        PatchErrorCase{R"([{"op": "replace", "path": "emails[type eq ", "value": "x"}])",
                       ScimType::kInvalidPath, "Operations[0] offset 15"},
        PatchErrorCase{R"([{"op": "replace", "path": "name[givenName eq \"A\"]", "value": "x"}])",
                       ScimType::kInvalidPath, "Operations[0]"},
        PatchErrorCase{R"([{"op": "remove"}])", ScimType::kNoTarget, "Operations[0]"},
        PatchErrorCase{R"([{"op": "replace", "path": "emails[type co \"w\"].value", "value": "x"},
                      {"op": "replace", "path": "emails[type eq \"fax\" or type eq \"x\"].value",
                       "value": "x"}])",
                       ScimType::kNoTarget, "Operations[1]"},
        // A value filter never acts on a scalar an earlier operation left.
        PatchErrorCase{R"([{"op": "replace", "path": "emails", "value": ["x"]},
                      {"op": "replace", "path": "emails[not (type eq \"a\")].value",
                       "value": "y"}])",
                       ScimType::kNoTarget, "Operations[1]"},
        PatchErrorCase{R"([{"op": "replace", "path": "active", "value": "maybe"}])",
                       ScimType::kInvalidValue, "active"},
        PatchErrorCase{R"([{"op": "replace", "path": "userName", "value": 7}])",
                       ScimType::kInvalidValue, "userName"},
        PatchErrorCase{R"([{"op": "remove", "path": "userName"}])", ScimType::kInvalidValue,
                       "userName"},
        PatchErrorCase{R"([{"op": "replace", "value": "not an object"}])", ScimType::kInvalidValue,
                       "Operations[0]"},
        PatchErrorCase{R"([{"op": "replace", "path": "displayName"}])", ScimType::kInvalidValue,
                       "Operations[0]"},
        PatchErrorCase{R"([{"op": "move", "path": "displayName", "value": "x"}])",
                       ScimType::kInvalidSyntax, "Operations[0]"},
        PatchErrorCase{R"([{"path": "displayName", "value": "x"}])", ScimType::kInvalidSyntax,
                       "Operations[0]"},
        PatchErrorCase{R"([42])", ScimType::kInvalidSyntax, "Operations[0]"}));

TEST(ScimPatch, ABodyWithoutOperationsIsInvalidSyntax) {
  for (const char* body : {R"({})", R"({"Operations": {}})", R"([])", R"("PATCH")"}) {
    const Result<PatchResult> result = apply_patch(ResourceKind::kUser, ana(), json::parse(body));
    ASSERT_FALSE(result.ok()) << body;
    EXPECT_EQ(scim_type_of(result.status()), ScimType::kInvalidSyntax) << body;
  }
}

TEST(ScimPatch, ABodyNestedTooDeeplyIsRefused) {
  std::string deep = "1";
  for (int i = 0; i < kMaxValueDepth; ++i) deep = "[" + deep + "]";
  const json request =
      patch_request((R"([{"op": "add", "path": "displayName", "value": )" + deep + "}]").c_str());
  const Result<PatchResult> result = apply_patch(ResourceKind::kUser, ana(), request);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(scim_type_of(result.status()), ScimType::kInvalidSyntax) << result.status().to_string();
}

TEST(ScimPatch, AFailingOperationLeavesNoPartialResult) {
  // The first operation alone would succeed; the second fails: the caller
  // gets only the error, and its resource is what it was.
  const json before = ana();
  const json resource = ana();
  const Result<PatchResult> result = apply_patch(ResourceKind::kUser, resource, patch_request(R"([
    {"op": "replace", "path": "displayName", "value": "Changed"},
    {"op": "replace", "path": "id", "value": "other"}])"));
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(resource, before);
}

}  // namespace
}  // namespace allot::scim
