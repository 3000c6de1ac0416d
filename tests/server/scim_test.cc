// SCIM 2.0 at /scim/v2 of a real allotd, in the exact shapes Microsoft Entra
// ID (both PATCH dialects) and Okta send: provisioning, membership, soft
// delete, paging, discovery, the SCIM token kept apart from allot's own
// credentials, and every error in RFC 7644 form.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "scim_client.h"

namespace allot::server_test {
namespace {

using json = nlohmann::json;

TEST_F(ScimTest, TheSCIMTokenAndAllotsCredentialsReachOnlyTheirOwnRoutes) {
  for (const std::string& token :
       {std::string(), std::string("wrong-token-0123456789"), allotd_.admin_token()}) {
    const Reply refused = scim("GET", "/Users", nullptr, token);
    expect_scim_error(refused, 401);
    EXPECT_NE(refused.header("WWW-Authenticate").find("Bearer"), std::string::npos);
  }
  expect_scim_error(scim("POST", "/Users", {{"userName", "x"}}, ""), 401);
  EXPECT_EQ(call("GET", "/api/v1/teams", kScimToken).status, 401);
  EXPECT_EQ(call("GET", "/api/v1/whoami", kScimToken).status, 401);
  const Reply ok = scim("GET", "/Users");
  EXPECT_EQ(ok.status, 200) << ok.describe();
  EXPECT_EQ(ok.header("Content-Type"), "application/scim+json");
  EXPECT_EQ(allotd_.stderr_text().find(kScimToken), std::string::npos) << "never logged";
}

TEST_F(ScimTest, EntraProvisionsAUserAndAGroupInItsOwnShapes) {
  const std::string filter = "?filter=" + query_value(R"(userName eq "ana.lima@contoso.com")");
  const Reply none = scim("GET", "/Users" + filter);
  ASSERT_EQ(none.status, 200) << none.describe();
  EXPECT_EQ(none.json["totalResults"], 0);

  const json entra_user = json::parse(R"({
    "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User",
                "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User"],
    "externalId": "8c2f5f4e-6f0b-4a53-9bd6-2d0f6b2f1e77",
    "userName": "Ana.Lima@contoso.com",
    "active": true,
    "displayName": "Ana Lima",
    "emails": [{"primary": true, "type": "work", "value": "ana.lima@contoso.com"}],
    "meta": {"resourceType": "User"},
    "name": {"formatted": "Ana Lima", "familyName": "Lima", "givenName": "Ana"},
    "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User": {"department": "Research"}
  })");
  const Reply created = scim("POST", "/Users", entra_user);
  ASSERT_EQ(created.status, 201) << created.describe();
  const std::string ana = created.json.value("id", "");
  EXPECT_EQ(created.header("Location"), "/scim/v2/Users/" + ana);
  EXPECT_EQ(created.json["meta"]["location"], "/scim/v2/Users/" + ana);
  EXPECT_EQ(created.json[kEnterpriseUser]["department"], "Research");
  expect_scim_error(scim("POST", "/Users", entra_user), 409, "uniqueness");
  const Reply found = scim("GET", "/Users" + filter);
  EXPECT_EQ(found.json["totalResults"], 1) << "userName compares ignoring case";

  // The default dialect: capitalised ops, string booleans, a value path Entra
  // uses for a user without a work email, the enterprise attribute by URN.
  const Reply patched = scim("PATCH", "/Users/" + ana, patch_body(json::parse(R"([
        {"op": "Replace", "path": "displayName", "value": "Ana M. Lima"},
        {"op": "Add", "path": "emails[type eq \"work\"].value", "value": "ana@contoso.com"},
        {"op": "Replace", "path": "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department",
         "value": "R&D"},
        {"op": "Replace", "path": "active", "value": "False"}])")));
  ASSERT_EQ(patched.status, 200) << patched.describe();
  EXPECT_EQ(patched.json["displayName"], "Ana M. Lima");
  EXPECT_EQ(patched.json["emails"][0]["value"], "ana@contoso.com");
  EXPECT_EQ(patched.json[kEnterpriseUser]["department"], "R&D");
  EXPECT_EQ(patched.json["active"], false) << "a string boolean stored as a boolean";
  // The compliant dialect: path-less values whose keys are paths.
  const Reply again = scim("PATCH", "/Users/" + ana, patch_body(json::parse(R"([
        {"op": "replace", "value": {"active": true, "name.givenName": "Anna",
          "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department": "Ops"}}])")));
  ASSERT_EQ(again.status, 200) << again.describe();
  EXPECT_EQ(again.json["active"], true);
  EXPECT_EQ(again.json["name"]["givenName"], "Anna");
  EXPECT_EQ(again.json[kEnterpriseUser]["department"], "Ops");
  EXPECT_EQ(again.header("ETag"), again.json["meta"]["version"]);

  const Reply group = scim("POST", "/Groups", json::parse(R"({
    "schemas": ["urn:ietf:params:scim:schemas:core:2.0:Group"],
    "externalId": "0f6c1d2e-3b4a-4c5d-8e9f-a0b1c2d3e4f5",
    "displayName": "GPU Research", "members": []})"));
  ASSERT_EQ(group.status, 201) << group.describe();
  const std::string research = group.json.value("id", "");
  patch("/Groups/" + research, {{"op", "Add"}, {"path", "members"}, {"value", {{{"value", ana}}}}});
  // Entra's membership check, then its removal form.
  const std::string member_filter =
      "?excludedAttributes=members&filter=" +
      query_value("id eq \"" + research + "\" and members[value eq \"" + ana + "\"]");
  const Reply member = scim("GET", "/Groups" + member_filter);
  ASSERT_EQ(member.status, 200) << member.describe();
  EXPECT_EQ(member.json["totalResults"], 1);
  EXPECT_FALSE(member.json["Resources"][0].contains("members"));
  EXPECT_EQ(scim("GET", "/Users/" + ana).json["groups"][0]["display"], "GPU Research");
  patch("/Groups/" + research,
        {{"op", "Remove"}, {"path", "members"}, {"value", {{{"value", ana}}}}});
  EXPECT_EQ(scim("GET", "/Groups" + member_filter).json["totalResults"], 0);

  const Reply removed = scim("DELETE", "/Users/" + ana);
  EXPECT_EQ(removed.status, 204) << removed.describe();
  EXPECT_TRUE(removed.body.empty());
  expect_scim_error(scim("GET", "/Users/" + ana), 404);
  expect_scim_error(scim("DELETE", "/Users/" + ana), 404);
}

TEST_F(ScimTest, OktaProvisionsUpdatesAndDeactivatesInItsOwnShapes) {
  const Reply lookup =
      scim("GET", "/Users?filter=" + query_value(R"(userName eq "bo@okta.example")") +
                      "&startIndex=1&count=100");
  ASSERT_EQ(lookup.status, 200) << lookup.describe();
  EXPECT_EQ(lookup.json["Resources"], json::array());
  const json okta_user = json::parse(R"({
    "schemas": ["urn:ietf:params:scim:schemas:core:2.0:User"],
    "userName": "bo@okta.example",
    "name": {"givenName": "Bo", "familyName": "Ek"},
    "emails": [{"primary": true, "value": "bo@okta.example", "type": "work"}],
    "displayName": "Bo Ek", "locale": "en-US", "externalId": "00u1abcd2EFGH3ijk4x7",
    "groups": [], "password": "allot-canary-secret-okta-pw", "active": true})");
  const Reply created = scim("POST", "/Users", okta_user);
  ASSERT_EQ(created.status, 201) << created.describe();
  EXPECT_FALSE(created.json.contains("password")) << "returned never";
  const std::string bo = created.json.value("id", "");

  // Okta updates a profile with PUT of the whole user, id included.
  json updated = created.json;
  updated["name"]["familyName"] = "Eklund";
  updated.erase("meta");
  const Reply put = scim("PUT", "/Users/" + bo, updated);
  ASSERT_EQ(put.status, 200) << put.describe();
  EXPECT_EQ(put.json["name"]["familyName"], "Eklund");
  EXPECT_EQ(put.json["meta"]["created"], created.json["meta"]["created"]);

  const Reply group =
      scim("POST", "/Groups",
           {{"schemas", {kGroupSchema}}, {"displayName", "Okta Eng"}, {"members", json::array()}});
  ASSERT_EQ(group.status, 201);
  const std::string eng = group.json.value("id", "");
  patch("/Groups/" + eng, {{"op", "add"},
                           {"path", "members"},
                           {"value", {{{"value", bo}, {"display", "bo@okta.example"}}}}});
  // Okta renames with a path-less replace that repeats the id.
  patch("/Groups/" + eng,
        {{"op", "replace"}, {"value", {{"id", eng}, {"displayName", "Okta Engineering"}}}});
  const Reply renamed = scim("GET", "/Groups/" + eng);
  EXPECT_EQ(renamed.json["displayName"], "Okta Engineering");
  EXPECT_EQ(renamed.json["members"][0]["value"], bo);
  patch("/Groups/" + eng, {{"op", "remove"}, {"path", "members[value eq \"" + bo + "\"]"}});
  EXPECT_EQ(scim("GET", "/Groups/" + eng).json.value("members", json::array()), json::array());

  // Okta deactivates rather than deletes: the user stays, listed, inactive.
  patch("/Users/" + bo, {{"op", "replace"}, {"value", {{"active", false}}}});
  const Reply inactive = scim("GET", "/Users?filter=" + query_value("active eq false"));
  ASSERT_EQ(inactive.json["totalResults"], 1);
  EXPECT_EQ(inactive.json["Resources"][0]["id"], bo);
  EXPECT_EQ(scim("DELETE", "/Groups/" + eng).status, 204);
}

TEST_F(ScimTest, ListsPageInCreationOrderAndHideMembersOnRequest) {
  std::vector<std::string> ids;
  for (int i = 0; i < 5; ++i) ids.push_back(create_user("u" + std::to_string(i) + "@x.org"));
  create_group("Everyone", ids);
  const Reply page = scim("GET", "/Users?startIndex=2&count=2");
  ASSERT_EQ(page.status, 200) << page.describe();
  EXPECT_EQ(page.json["schemas"][0], "urn:ietf:params:scim:api:messages:2.0:ListResponse");
  EXPECT_EQ(page.json["totalResults"], 5);
  EXPECT_EQ(page.json["startIndex"], 2);
  EXPECT_EQ(page.json["itemsPerPage"], 2);
  EXPECT_EQ(page.json["Resources"][0]["id"], ids[1]);
  EXPECT_EQ(page.json["Resources"][1]["id"], ids[2]);
  const Reply groups = scim("GET", "/Groups?excludedAttributes=members");
  ASSERT_EQ(groups.json["Resources"].size(), 1U);
  EXPECT_FALSE(groups.json["Resources"][0].contains("members"));
  const Reply names = scim("GET", "/Users?attributes=userName&count=1");
  EXPECT_EQ(names.json["Resources"][0],
            (json{{"id", ids[0]}, {"userName", "u0@x.org"}, {"schemas", {kUserSchema}}}));
  expect_scim_error(scim("GET", "/Users?count=ten"), 400, "invalidValue");
}

TEST_F(ScimTest, BadRequestsGetRFC7644Errors) {
  const std::string ana = create_user("ana@x.org");
  expect_scim_error(scim("GET", "/Users?filter=" + query_value("userName eq")), 400,
                    "invalidFilter");
  expect_scim_error(scim("GET", "/Users?filter=" + query_value("(userName eq \"a\"")), 400,
                    "invalidFilter");
  expect_scim_error(scim("PATCH", "/Users/" + ana,
                         patch_body({{{"op", "replace"}, {"path", "noSuchThing"}, {"value", 1}}})),
                    400, "invalidPath");
  expect_scim_error(scim("POST", "/Users", {{"userName", 42}}), 400, "invalidValue");
  expect_scim_error(call("POST", "/scim/v2/Users", kScimToken, "{not json"), 400, "invalidSyntax");
  expect_scim_error(scim("PATCH", "/Users/" + ana, {{"op", "replace"}}), 400, "invalidSyntax");
  expect_scim_error(scim("PATCH", "/Users/" + ana, patch_body({{{"op", "Frobnicate"}}})), 400,
                    "invalidSyntax");
  expect_scim_error(
      scim("POST", "/Groups", {{"displayName", "G"}, {"members", {{{"value", "ghost"}}}}}), 400,
      "invalidValue");
  expect_scim_error(scim("GET", "/Users/no-such-id"), 404);
  expect_scim_error(scim("PUT", "/Groups/no-such-id", {{"displayName", "G"}}), 404);
  expect_scim_error(scim("GET", "/Bulk"), 404);
  const Reply not_allowed = scim("DELETE", "/Users");
  expect_scim_error(not_allowed, 405);
  EXPECT_EQ(not_allowed.header("Allow"), "GET, POST");
  // Nothing half-applied: the failed PATCH left ana as she was.
  EXPECT_EQ(scim("GET", "/Users/" + ana).json["meta"]["version"], "W/\"1\"");
  // The server's size limit holds here too.
  const Reply huge = scim("POST", "/Users",
                          {{"userName", "big@x.org"}, {"displayName", std::string(5 << 20, 'x')}});
  EXPECT_EQ(huge.status, 413) << huge.status;
}

TEST_F(ScimTest, DiscoveryDocumentsDescribeWhatIsServed) {
  const Reply config = scim("GET", "/ServiceProviderConfig");
  ASSERT_EQ(config.status, 200) << config.describe();
  EXPECT_EQ(config.json["patch"]["supported"], true);
  EXPECT_EQ(config.json["bulk"]["supported"], false);
  EXPECT_EQ(config.json["filter"]["supported"], true);
  const Reply types = scim("GET", "/ResourceTypes");
  ASSERT_EQ(types.status, 200);
  EXPECT_EQ(types.json["totalResults"], 2);
  EXPECT_EQ(scim("GET", "/ResourceTypes/Group").json["endpoint"], "/Groups");
  expect_scim_error(scim("GET", "/ResourceTypes/Printer"), 404);
  EXPECT_EQ(scim("GET", "/Schemas").json["totalResults"], 3);
  EXPECT_EQ(scim("GET", std::string("/Schemas/") + kEnterpriseUser).json["id"], kEnterpriseUser);
  expect_scim_error(scim("GET", "/Schemas/urn:nothing"), 404);
}

class ScimOffTest : public AllotdTest {};

TEST_F(ScimOffTest, WithoutTheFlagSCIMIsNotFoundAndSaysWhy) {
  for (const std::string& token : {std::string(), allotd_.admin_token()}) {
    httplib::Client http("127.0.0.1", allotd_.port());
    if (!token.empty()) http.set_bearer_token_auth(token);
    const httplib::Result res = http.Get("/scim/v2/Users");
    ASSERT_TRUE(res);
    Reply reply{res->status, res->body, json::parse(res->body, nullptr, false), res->headers};
    expect_scim_error(reply, 404);
    EXPECT_NE(reply.json.value("detail", "").find("SCIM is not configured"), std::string::npos)
        << reply.body;
  }
}

}  // namespace
}  // namespace allot::server_test
