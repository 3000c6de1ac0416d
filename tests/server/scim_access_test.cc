// The SCIM directory as allotd's source of people (issue 11): what it
// provisions survives a restart; its groups are RBAC subjects from the next
// request; a deactivated user is refused at once; its passwords serve the
// local provider (with lockout), also through `allot login --local`.
#include <array>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "scim_client.h"

namespace allot::server_test {
namespace {

using json = nlohmann::json;

// A manifest only a cluster administrator may apply.
constexpr const char* kCohort = R"({"apiVersion": "allot/v1", "kind": "Cohort",
                                    "metadata": {"name": "org-2"}})";

// The directory group the tests make administrators, as an organisation
// would: bound to cluster-admin by a ClusterRoleBinding it applies.
constexpr const char* kAdminsBinding = R"({"apiVersion": "rbac.authorization.k8s.io/v1",
  "kind": "ClusterRoleBinding", "metadata": {"name": "platform-admins"},
  "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
              "name": "cluster-admin"},
  "subjects": [{"kind": "Group", "name": "platform-admins"}]})";

class ScimAccessTest : public ScimTest {
 protected:
  void SetUp() override {
    ScimTest::SetUp();
    const Reply bound = call("POST", "/api/v1/apply", allotd_.admin_token(), kAdminsBinding);
    ASSERT_EQ(bound.status, 200) << bound.describe();
  }
  // Whether `token` may act as a cluster administrator now (200), or the status.
  int administer(const std::string& token) {
    return call("POST", "/api/v1/apply", token, kCohort).status;
  }
  json whoami(const std::string& token) { return call("GET", "/api/v1/whoami", token).json; }
  void add_member(const std::string& group, const std::string& user) {
    patch("/Groups/" + group, {{"op", "Add"}, {"path", "members"}, {"value", {{{"value", user}}}}});
  }
  void remove_member(const std::string& group, const std::string& user) {
    patch("/Groups/" + group,
          {{"op", "Remove"}, {"path", "members"}, {"value", {{{"value", user}}}}});
  }
};

TEST_F(ScimAccessTest, UsersGroupsMembershipAndPasswordsSurviveARestart) {
  const std::string ana = create_user("ana@x.org", "allot-canary-secret-pw-1");
  const std::string bo = create_user("bo@x.org");
  const std::string admins = create_group("platform-admins", {ana, bo});
  const json before_users = scim("GET", "/Users").json;
  const json before_groups = scim("GET", "/Groups").json;

  ASSERT_EQ(allotd_.restart(), "") << allotd_.stderr_text();

  EXPECT_EQ(scim("GET", "/Users").json, before_users);
  EXPECT_EQ(scim("GET", "/Groups").json, before_groups);
  EXPECT_EQ(scim("GET", "/Users/" + ana).json["groups"][0]["value"], admins);
  const std::string session = login("ana@x.org", "allot-canary-secret-pw-1");
  ASSERT_FALSE(session.empty()) << "the password hash was stored";
  EXPECT_EQ(administer(session), 200) << "and the membership";
  // New users still come last, and names stay unique.
  const std::string cy = create_user("cy@x.org");
  EXPECT_EQ(scim("GET", "/Users").json["Resources"][2]["id"], cy);
  expect_scim_error(scim("POST", "/Users", {{"userName", "ANA@x.org"}}), 409, "uniqueness");
}

TEST_F(ScimAccessTest, ADirectoryGroupGrantsItsBindingsFromTheNextRequest) {
  const std::string ana = create_user("ana@x.org", "allot-canary-secret-pw-1");
  const std::string admins = create_group("platform-admins", {ana});
  const std::string session = login("ana@x.org", "allot-canary-secret-pw-1");
  ASSERT_FALSE(session.empty());
  EXPECT_EQ(whoami(session)["groups"], json::array({"platform-admins"}));
  EXPECT_EQ(administer(session), 200);

  remove_member(admins, ana);
  EXPECT_EQ(administer(session), 403) << "gone on the next request";
  EXPECT_EQ(whoami(session)["groups"], json::array());
  add_member(admins, ana);
  EXPECT_EQ(administer(session), 200) << "back on the next request";
  // Renaming the group away from the bound name takes the rights with it.
  patch("/Groups/" + admins, {{"op", "Replace"}, {"path", "displayName"}, {"value", "admins"}});
  EXPECT_EQ(administer(session), 403);
}

// "system:admins" is allot's own group, bound to cluster-admin (principal.h):
// a directory may not create it, rename a group to it, or name a user so.
TEST_F(ScimAccessTest, TheDirectoryCannotPoseAsAllotsOwnNames) {
  const std::string ana = create_user("ana@x.org", "allot-canary-secret-pw-1");
  expect_scim_error(scim("POST", "/Groups",
                         {{"schemas", {kGroupSchema}},
                          {"displayName", "system:admins"},
                          {"members", {{{"value", ana}}}}}),
                    400, "invalidValue");
  expect_scim_error(scim("POST", "/Users", {{"schemas", {kUserSchema}}, {"userName", "system:x"}}),
                    400, "invalidValue");
  const std::string group = create_group("ops", {ana});
  expect_scim_error(
      scim("PATCH", "/Groups/" + group,
           patch_body({{{"op", "replace"}, {"path", "displayName"}, {"value", "system:admins"}}})),
      400, "invalidValue");
  expect_scim_error(scim("PUT", "/Groups/" + group,
                         {{"schemas", {kGroupSchema}}, {"displayName", "system:admins"}}),
                    400, "invalidValue");
  expect_scim_error(scim("PATCH", "/Users/" + ana,
                         patch_body({{{"op", "replace"}, {"value", {{"userName", "system:y"}}}}})),
                    400, "invalidValue");
  EXPECT_EQ(scim("GET", "/Groups/" + group).json["displayName"], "ops") << "nothing applied";
  EXPECT_EQ(scim("GET", "/Groups?filter=" + query_value("displayName sw \"system:\""))
                .json.value("totalResults", -1),
            0);
  // ana holds no binding: a cluster-wide session is refused, as it would not
  // be had "system:admins" been created or taken.
  const Reply session =
      call("POST", "/api/v1/sessions", "",
           json{{"username", "ana@x.org"}, {"password", "allot-canary-secret-pw-1"}}.dump());
  EXPECT_EQ(session.status, 403) << session.describe();
}

TEST_F(ScimAccessTest, ADeactivatedUserIsRefusedAtOnceEvenWithALiveSession) {
  const std::string ana = create_user("ana@x.org", "allot-canary-secret-pw-1");
  create_group("platform-admins", {ana});
  const std::string session = login("ana@x.org", "allot-canary-secret-pw-1");
  ASSERT_EQ(administer(session), 200);

  patch("/Users/" + ana, {{"op", "Replace"}, {"path", "active"}, {"value", "False"}});
  const Reply refused = call("GET", "/api/v1/whoami", session);
  EXPECT_EQ(refused.status, 401) << refused.describe();
  EXPECT_TRUE(login("ana@x.org", "allot-canary-secret-pw-1").empty());
  patch("/Users/" + ana, {{"op", "Replace"}, {"path", "active"}, {"value", "True"}});
  EXPECT_EQ(administer(session), 200);
  EXPECT_EQ(scim("DELETE", "/Users/" + ana).status, 204);
  EXPECT_EQ(call("GET", "/api/v1/whoami", session).status, 401) << "deleted: refused too";
}

TEST_F(ScimAccessTest, LocalLoginsSayNothingAboutWhoExistsAndLockAfterFailures) {
  create_user("ana@x.org", "allot-canary-secret-pw-1");
  const auto attempt = [this](const std::string& user, const std::string& password) {
    return call("POST", "/api/v1/sessions", "",
                json{{"username", user}, {"password", password}}.dump());
  };
  const Reply wrong = attempt("ana@x.org", "guess");
  const Reply unknown = attempt("ghost@x.org", "guess");
  EXPECT_EQ(wrong.status, 401);
  EXPECT_EQ(unknown.status, 401);
  EXPECT_EQ(wrong.json["message"], unknown.json["message"]);
  EXPECT_EQ(attempt("ana@x.org", "").status, 400);

  for (int i = 0; i < 4; ++i) attempt("ana@x.org", "guess");  // 5 failures in all
  const Reply locked = attempt("ana@x.org", "allot-canary-secret-pw-1");
  EXPECT_EQ(locked.status, 401);
  EXPECT_NE(locked.json.value("message", "").find("too many failed logins"), std::string::npos)
      << locked.describe();
  const std::string logs = allotd_.stderr_text();
  EXPECT_EQ(logs.find("allot-canary-secret-pw-1"), std::string::npos);
  EXPECT_EQ(logs.find("guess"), std::string::npos);
}

TEST_F(ScimAccessTest, TheCLILogsInToTheLocalProvider) {
  const std::string ana = create_user("ana@x.org", "allot-canary-secret-pw-1");
  create_group("platform-admins", {ana});
  const std::string credentials = temp_file("ana-credentials.json");
  const auto allot = [&](const std::string& password, const std::string& args) {
    const std::string command =
        "printf '%s\\n' " + shell_quote(password) +
        " | ALLOT_CREDENTIALS=" + shell_quote(credentials) +
        " ALLOT_TOKEN= ALLOT_SERVER=http://127.0.0.1:" + std::to_string(allotd_.port()) + " " +
        ALLOT_CLI + " " + args + " 2>&1";
    std::string output;
    std::FILE* pipe = ::popen(command.c_str(), "r");
    std::array<char, 4096> buffer{};
    size_t got = 0;
    while (pipe != nullptr && (got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
      output.append(buffer.data(), got);
    }
    const int status = pipe != nullptr ? ::pclose(pipe) : -1;
    return std::make_pair(WIFEXITED(status) ? WEXITSTATUS(status) : -1, output);
  };

  const auto [code, output] =
      allot("allot-canary-secret-pw-1", "login --local --username ana@x.org --password-stdin");
  ASSERT_EQ(code, 0) << output;
  EXPECT_NE(output.find("logged in as ana@x.org"), std::string::npos) << output;
  EXPECT_EQ(output.find("allot-canary-secret-pw-1"), std::string::npos);
  const auto [who_code, who] = allot("", "whoami");
  EXPECT_EQ(who_code, 0) << who;
  EXPECT_NE(who.find("platform-admins"), std::string::npos) << who;

  const auto [bad_code, bad] =
      allot("guess", "login --local --username ana@x.org --password-stdin");
  EXPECT_NE(bad_code, 0);
  EXPECT_NE(bad.find("user name or password is wrong"), std::string::npos) << bad;
  const auto [usage_code, usage] = allot("x", "login --local --password-stdin");
  EXPECT_NE(usage_code, 0) << usage;
}

}  // namespace
}  // namespace allot::server_test
