// Issue 11, service accounts through a real allotd: an account of a team's
// namespace, its token shown once and working as a bearer token (whoami says
// it is the account), denied what no binding grants, revoked (401 on the next
// request) alone or with its account, and all of it kept by a restart.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "allotd_test.h"

namespace allot::server_test {
namespace {

const std::string kAccounts = "/api/v1/namespaces/research/serviceaccounts";
const std::string kCi = kAccounts + "/ci";
const std::string kCiTokens = kCi + "/tokens";
const std::string kCiSubject = "system:serviceaccount:research:ci";

class ServiceAccountTest : public AllotdTest {
 protected:
  void SetUp() override {
    AllotdTest::SetUp();
    apply(kTestPolicy);
  }

  void create_ci() {
    const Reply created = api_.post_json(kAccounts, {{"name", "ci"}});
    ASSERT_EQ(created.status, 201) << created.describe();
  }

  // A fresh token of research/ci (its id in `id`).
  std::string issue(std::string* id = nullptr,
                    const nlohmann::json& body = nlohmann::json::object()) {
    const Reply issued = api_.post_json(kCiTokens, body);
    EXPECT_EQ(issued.status, 201) << issued.describe();
    if (id != nullptr) *id = issued.json.value("id", "");
    return issued.json.is_object() ? issued.json.value("token", "") : "";
  }

  // The status of whoami with `token`, and the subject it names.
  std::pair<int, std::string> whoami(const std::string& token) const {
    const Reply me = ApiHttp(allotd_, token).get("/api/v1/whoami");
    return {me.status, me.json.is_object() ? me.json.value("subject", "") : ""};
  }

  std::string session(const std::string& team, const std::string& role) {
    const Reply opened =
        ApiHttp(allotd_, "")
            .post_json("/api/v1/sessions",
                       {{"token", allotd_.admin_token()}, {"team", team}, {"role", role}});
    EXPECT_EQ(opened.status, 201) << opened.describe();
    return opened.json.is_object() ? opened.json.value("token", "") : "";
  }
};

TEST_F(ServiceAccountTest, ATokenIsShownOnceAndActsAsTheAccountWhichIsDeniedByDefault) {
  submit("research", "r1", {.script = "sleep 600", .gpus = 1});
  create_ci();

  const Reply issued = api_.post_json(kCiTokens, nlohmann::json::object());

  ASSERT_EQ(issued.status, 201) << issued.describe();
  const std::string token = issued.json.value("token", "");
  EXPECT_TRUE(token.starts_with("allot_")) << issued.describe();
  EXPECT_EQ(issued.json.value("id", ""), "research.ci.1");
  EXPECT_EQ(issued.header("Cache-Control"), "no-store");
  const Reply listed = api_.get(kCiTokens);
  ASSERT_EQ(listed.status, 200);
  ASSERT_EQ(listed.json["items"].size(), 1u);
  EXPECT_EQ(listed.json["items"][0].value("id", ""), "research.ci.1");
  EXPECT_FALSE(listed.json["items"][0].contains("token"));
  const Reply account = api_.get(kCi);
  EXPECT_EQ(account.json["subject"], kCiSubject);
  for (const Reply& reply : {listed, account, api_.get("/api/v1/serviceaccounts")}) {
    EXPECT_EQ(reply.body.find(token), std::string::npos) << "shown once only";
  }

  const ApiHttp as_ci(allotd_, token);
  const Reply me = as_ci.get("/api/v1/whoami");
  EXPECT_EQ(me.status, 200);
  EXPECT_EQ(me.json.value("subject", ""), kCiSubject);
  EXPECT_EQ(me.json["groups"],
            nlohmann::json({"system:serviceaccounts", "system:serviceaccounts:research"}));
  const Reply denied = as_ci.get("/api/v1/namespaces/research/workloads/r1");
  EXPECT_EQ(denied.status, 403);
  EXPECT_NE(denied.json.value("message", "").find("ServiceAccount \"research/ci\" cannot get"),
            std::string::npos)
      << denied.describe();
  EXPECT_EQ(as_ci.get("/api/v1/workloads").json["items"].size(), 0u) << "sees nothing";
  EXPECT_EQ(as_ci.post_json(kCiTokens, nlohmann::json::object()).status, 403);
  EXPECT_EQ(ApiHttp(allotd_, "").post_json("/api/v1/sessions", {{"token", token}}).status, 403)
      << "a service account opens no session";
  EXPECT_EQ(allotd_.stderr_text().find(token), std::string::npos) << "never logged";
}

TEST_F(ServiceAccountTest, RevokedTokensAndDeletedAccountsAreRefusedAtOnceAndAfterARestart) {
  create_ci();
  std::string first_id;
  const std::string first = issue(&first_id);
  const std::string second = issue();

  EXPECT_EQ(api_.del(kCiTokens + "/" + first_id).status, 200);

  EXPECT_EQ(whoami(first).first, 401);
  EXPECT_EQ(whoami(second), std::make_pair(200, kCiSubject));
  ASSERT_EQ(allotd_.restart(), "");
  EXPECT_EQ(whoami(first).first, 401);
  EXPECT_EQ(whoami(second), std::make_pair(200, kCiSubject)) << "kept by the restart";
  EXPECT_EQ(api_.get(kCi).json["tokens"].size(), 1u);

  EXPECT_EQ(api_.del(kCi).status, 200);

  EXPECT_EQ(whoami(second).first, 401) << "deleting the account revokes its tokens";
  ASSERT_EQ(allotd_.restart(), "");
  EXPECT_EQ(whoami(second).first, 401);
  EXPECT_EQ(api_.get(kCi).status, 404);
  EXPECT_EQ(api_.del(kCiTokens + "/" + first_id).status, 404);
}

TEST_F(ServiceAccountTest, BadRequestsAreClearErrors) {
  EXPECT_EQ(api_.post_json("/api/v1/namespaces/nowhere/serviceaccounts", {{"name", "ci"}}).status,
            404);
  const Reply bad_name = api_.post_json(kAccounts, {{"name", "Bad_Name"}});
  EXPECT_EQ(bad_name.status, 400);
  EXPECT_NE(bad_name.json.value("message", "").find("DNS-1123 label"), std::string::npos);
  EXPECT_EQ(api_.post(kAccounts, "not json", "application/json").status, 400);
  EXPECT_EQ(api_.post_json(kAccounts, {{"name", "ci"}, {"secrets", 1}}).status, 400);
  EXPECT_EQ(api_.post_json(kAccounts, {{"kind", "ServiceAccount"},
                                       {"metadata", {{"name", "ci"}, {"namespace", "prod"}}}})
                .status,
            400);
  const Reply manifest = api_.post_json(
      kAccounts,
      {{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", {{"name", "ci"}}}});
  EXPECT_EQ(manifest.status, 201) << manifest.describe();
  EXPECT_EQ(manifest.json["metadata"]["namespace"], "research");
  EXPECT_EQ(api_.post_json(kAccounts, {{"name", "ci"}}).status, 409);
  for (const nlohmann::json& body :
       {nlohmann::json{{"expirationSeconds", "1h"}}, nlohmann::json{{"expirationSeconds", 60}},
        nlohmann::json{{"expirationSeconds", -5}}, nlohmann::json{{"ttl", 3600}}}) {
    EXPECT_EQ(api_.post_json(kCiTokens, body).status, 400) << body.dump();
  }
  const Reply expiring = api_.post_json(kCiTokens, {{"expirationSeconds", 3600}});
  EXPECT_EQ(expiring.status, 201);
  EXPECT_FALSE(expiring.json.value("expiresAt", "").empty()) << expiring.describe();
  EXPECT_EQ(api_.post_json(kAccounts + "/cd/tokens", nlohmann::json::object()).status, 404);
}

TEST_F(ServiceAccountTest, ATeamAdminManagesItsTeamsAccountsAndAMemberIssuesNoToken) {
  const ApiHttp research_admin(allotd_, session("research", "team-admin"));
  const ApiHttp member(allotd_, session("research", "team-member"));
  ASSERT_EQ(api_.post_json("/api/v1/namespaces/prod/serviceaccounts", {{"name", "deploy"}}).status,
            201);

  EXPECT_EQ(research_admin.post_json(kAccounts, {{"name", "ci"}}).status, 201);
  EXPECT_EQ(research_admin.post_json(kCiTokens, nlohmann::json::object()).status, 201);
  EXPECT_EQ(
      research_admin.post_json("/api/v1/namespaces/prod/serviceaccounts", {{"name", "x"}}).status,
      403);
  const Reply mine = research_admin.get("/api/v1/serviceaccounts");
  ASSERT_EQ(mine.status, 200);
  ASSERT_EQ(mine.json["items"].size(), 1u) << "another team's accounts are not listed";
  EXPECT_EQ(mine.json["items"][0]["metadata"]["name"], "ci");
  EXPECT_EQ(member.post_json(kCiTokens, nlohmann::json::object()).status, 403);
  EXPECT_EQ(member.get(kAccounts).status, 403);
  EXPECT_EQ(api_.get("/api/v1/serviceaccounts").json["items"].size(), 2u);
}

}  // namespace
}  // namespace allot::server_test
