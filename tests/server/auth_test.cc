// Issue 11: allotd denies by default. Every route but the probes and the
// login needs a bearer token; the first start writes the administrator's
// token to DATA/admin-token (0600) once; a session bound to a team and a
// role acts only there, and lists show it only its team.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/stat.h>

#include "allotd_test.h"

namespace allot::server_test {
namespace {

class AuthTest : public AllotdTest {
 protected:
  // A client of `allotd_` that sends `token` (or nothing).
  static Reply call(int port, const std::string& method, const std::string& path,
                    const std::string& token, const std::string& body = "") {
    httplib::Client http("127.0.0.1", port);
    if (!token.empty()) http.set_bearer_token_auth(token);
    httplib::Result res = method == "GET"    ? http.Get(path)
                          : method == "POST" ? http.Post(path, body, "application/json")
                                             : http.Delete(path);
    Reply reply;
    if (!res) return reply;
    reply.status = res->status;
    reply.body = res->body;
    reply.json = nlohmann::json::parse(res->body, nullptr, false);
    reply.headers = res->headers;
    return reply;
  }

  std::string session(const std::string& team, const std::string& role) {
    const Reply reply = call(
        allotd_.port(), "POST", "/api/v1/sessions", "",
        nlohmann::json{{"token", allotd_.admin_token()}, {"team", team}, {"role", role}}.dump());
    EXPECT_EQ(reply.status, 201) << reply.describe();
    return reply.json.is_object() ? reply.json.value("token", "") : "";
  }
};

TEST_F(AuthTest, EveryRouteButTheProbesNeedsAToken) {
  const int port = allotd_.port();

  EXPECT_EQ(call(port, "GET", "/healthz", "").status, 200);
  EXPECT_EQ(call(port, "GET", "/readyz", "").status, 200);
  for (const auto& [method, path] : std::vector<std::pair<std::string, std::string>>{
           {"GET", "/api/v1/workloads"},
           {"GET", "/api/v1/teams"},
           {"POST", "/api/v1/apply"},
           {"GET", "/api/v1/nodes"},
           {"DELETE", "/api/v1/namespaces/prod/workloads/a"},
           {"GET", "/api/v1/no-such-route"}}) {
    const Reply anonymous = call(port, method, path, "");
    EXPECT_EQ(anonymous.status, 401) << method << " " << path;
    EXPECT_EQ(anonymous.json.value("code", ""), "unauthenticated");
    EXPECT_NE(anonymous.header("WWW-Authenticate").find("Bearer"), std::string::npos);
    EXPECT_EQ(call(port, method, path, "allot_" + std::string(43, 'A')).status, 401);
  }
  EXPECT_EQ(call(port, "GET", "/api/v1/teams", allotd_.admin_token()).status, 200);
}

TEST_F(AuthTest, TheFirstAdministratorsTokenIsWrittenOnceForItsOwnerOnly) {
  const std::string token = allotd_.admin_token();
  struct stat info {};
  ASSERT_EQ(::stat((allotd_.data_dir() / "admin-token").c_str(), &info), 0);

  EXPECT_EQ(info.st_mode & 0777, 0600);
  ASSERT_EQ(allotd_.restart(), "");
  EXPECT_EQ(allotd_.admin_token(), token) << "not replaced at a restart";
  EXPECT_EQ(call(allotd_.port(), "GET", "/api/v1/whoami", token).json.value("subject", ""),
            "admin");
  EXPECT_EQ(allotd_.stderr_text().find(token), std::string::npos) << "never logged";
}

TEST_F(AuthTest, ATeamSessionSeesAndActsOnlyInItsTeam) {
  apply(kTestPolicy);
  submit("prod", "p1", {.script = "sleep 600", .gpus = 1});
  submit("research", "r1", {.script = "sleep 600", .gpus = 1});
  const std::string member = session("research", "team-member");
  const int port = allotd_.port();

  const Reply mine = call(port, "GET", "/api/v1/workloads", member);
  ASSERT_EQ(mine.status, 200) << mine.describe();
  ASSERT_EQ(mine.json["items"].size(), 1u) << "another team's work is not listed";
  EXPECT_EQ(mine.json["items"][0]["metadata"]["name"], "r1");
  EXPECT_EQ(call(port, "GET", "/api/v1/namespaces/prod/workloads/p1", member).status, 403);
  const Reply refused = call(port, "POST", "/api/v1/namespaces/prod/workloads/p1/cancel", member);
  EXPECT_EQ(refused.status, 403);
  EXPECT_NE(refused.json.value("message", "")
                .find("cannot cancel workloads \"p1\" in namespace \"prod\""),
            std::string::npos)
      << refused.describe();
  EXPECT_EQ(call(port, "POST", "/api/v1/namespaces/research/workloads/r1/cancel", member).status,
            200);
  EXPECT_EQ(call(port, "POST", "/api/v1/apply", member,
                 R"({"apiVersion": "allot/v1", "kind": "Cohort", "metadata": {"name": "x"}})")
                .status,
            403);
  const Reply whoami = call(port, "GET", "/api/v1/whoami", member);
  EXPECT_EQ(whoami.json.value("team", ""), "research");
  EXPECT_EQ(whoami.json.value("role", ""), "team-member");
  const Reply can_i = call(port, "POST", "/api/v1/accessreviews", member,
                           R"({"verb": "delete", "resource": "teams"})");
  EXPECT_EQ(can_i.status, 200);
  EXPECT_FALSE(can_i.json.value("allowed", true));
}

TEST_F(AuthTest, ABadLoginIsAClearErrorAndNoSession) {
  const int port = allotd_.port();

  EXPECT_EQ(call(port, "POST", "/api/v1/sessions", "", "not json").status, 400);
  EXPECT_EQ(call(port, "POST", "/api/v1/sessions", "", R"({"token": 7})").status, 400);
  EXPECT_EQ(call(port, "POST", "/api/v1/sessions", "", R"({"team": "prod"})").status, 400);
  EXPECT_EQ(call(port, "POST", "/api/v1/sessions", "",
                 R"({"token": "allot_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"})")
                .status,
            401);
  EXPECT_EQ(call(port, "POST", "/api/v1/sessions", "",
                 nlohmann::json{{"token", allotd_.admin_token()}, {"team", "prod"}}.dump())
                .status,
            400)
      << "a team without a role";
  const Reply huge = call(port, "POST", "/api/v1/sessions", "",
                          nlohmann::json{{"token", allotd_.admin_token()},
                                         {"ttlSeconds", int64_t{9'000'000'000'000'000'000}}}
                              .dump());
  EXPECT_EQ(huge.status, 201) << "capped at 12 hours, never overflowed: " << huge.describe();
}

}  // namespace
}  // namespace allot::server_test
