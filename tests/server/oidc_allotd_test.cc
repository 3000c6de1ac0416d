// Issue 11, OIDC through a real allotd started with --oidc-issuer pointing at
// the tests' real OpenID provider (scripts/oidc-provider, ctest fixture
// `oidc_provider`): `allot login` with the device grant end to end (a
// TestBrowser approves the code the CLI prints), a session bound to a team
// and a role, `allot auth token --exec-credential`, ID tokens as bearer
// tokens, the refusals (wrong issuer or audience, expired, not yet valid,
// tampered, alg none, HS256 keyed with the public key), each 401 with its
// reason, and a key rotation at the issuer. Tokens the tests forge are
// signed with the provider's own keys (it writes them to its folder), so
// each is refused for the one thing wrong with it.
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "allotd_test.h"
#include "api/rfc3339.h"
#include "base/clock.h"
#include "identity/oidc/base64url.h"
#include "identity/oidc/device_flow.h"
#include "identity/oidc/oidc_http_client.h"
#include "test_browser.h"
#include "test_signer.h"

namespace allot::server_test {
namespace {

using nlohmann::json;
using oidc::testing::TestSigner;

constexpr char kClient[] = "allot-cli";

std::string provider_dir() {
  const char* dir = std::getenv("ALLOT_TEST_OIDC_DIR");
  return dir == nullptr ? "" : dir;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string issuer_url() {
  std::string issuer = read_text(provider_dir() + "/issuer");
  while (!issuer.empty() && (issuer.back() == '\n' || issuer.back() == '\r')) issuer.pop_back();
  return issuer;
}

int64_t now_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The claims of a token from the issuer for `user`, valid for an hour.
json claims_for(const std::string& issuer, const std::string& user, json groups) {
  return {{"iss", issuer},
          {"aud", kClient},
          {"sub", user},
          {"preferred_username", user},
          {"groups", std::move(groups)},
          {"iat", now_seconds()},
          {"exp", now_seconds() + 3600}};
}

// A client of allotd at `port` that sends `bearer` (or nothing).
Reply call(int port, const std::string& method, const std::string& path, const std::string& bearer,
           const std::string& body = "") {
  httplib::Client http("127.0.0.1", port);
  http.set_read_timeout(std::chrono::seconds(30));
  if (!bearer.empty()) http.set_bearer_token_auth(bearer);
  httplib::Result res =
      method == "GET" ? http.Get(path) : http.Post(path, body, "application/json");
  Reply reply;
  if (!res) return reply;
  reply.status = res->status;
  reply.body = res->body;
  reply.json = json::parse(res->body, nullptr, false);
  return reply;
}

class OidcAllotdTest : public AllotdTest {
 protected:
  void SetUp() override {
    issuer_ = issuer_url();
    if (issuer_.empty()) GTEST_SKIP() << "no provider: run through ctest (fixture oidc_provider)";
    AllotdTest::SetUp();
    const Reply bound = call(allotd_.port(), "POST", "/api/v1/apply", allotd_.admin_token(),
                             R"({"apiVersion": "rbac.authorization.k8s.io/v1",
      "kind": "ClusterRoleBinding", "metadata": {"name": "platform-admins"},
      "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                  "name": "cluster-admin"},
      "subjects": [{"kind": "Group", "name": "platform-admins"}]})");
    ASSERT_EQ(bound.status, 200) << bound.describe();
  }

  std::vector<std::string> allotd_flags() override {
    // Refetches unthrottled, so that the rotation test need not wait a minute.
    return {"--oidc-issuer",           issuer_,
            "--oidc-client-id",        kClient,
            "--oidc-scopes",           "openid profile groups",
            "--oidc-jwks-min-refetch", "0s"};
  }

  // The provider's private key `kid` (it writes them to its folder).
  [[nodiscard]] static TestSigner provider_key(const std::string& kid) {
    return TestSigner::from_private_pem(kid, read_text(provider_dir() + "/keys/" + kid + ".pem"));
  }

  // A real ID token from the provider: the device grant, approved by a browser.
  std::string device_login(const std::string& user) {
    oidc::OidcHttpClient http;
    const oidc::DeviceFlowConfig config{.client_id = kClient,
                                        .device_authorization_endpoint = issuer_ + "/device/auth",
                                        .token_endpoint = issuer_ + "/token",
                                        .scope = "openid profile groups"};
    SystemClock clock;
    std::string browser_error;
    auto tokens = oidc::run_device_flow(
        config, http, clock,
        [](Duration d) { std::this_thread::sleep_for(std::chrono::milliseconds(d.ms())); },
        [&](const oidc::DeviceAuthorization& authorization) {
          oidc::testing::TestBrowser browser(issuer_);
          browser_error = browser.approve(authorization.user_code, user, user + "-password");
        });
    EXPECT_EQ(browser_error, "");
    EXPECT_TRUE(tokens.ok() && tokens->id_token) << tokens.status().to_string();
    return tokens.ok() && tokens->id_token ? *tokens->id_token : std::string();
  }

  // The 401 of allotd for `token`, as a bearer and as a session's credential.
  void expect_refused(const std::string& token, const std::string& reason) {
    const Reply bearer = call(allotd_.port(), "GET", "/api/v1/whoami", token);
    EXPECT_EQ(bearer.status, 401) << reason << ": " << bearer.describe();
    EXPECT_EQ(bearer.json.value("code", ""), "unauthenticated");
    EXPECT_NE(bearer.json.value("message", "").find(reason), std::string::npos)
        << bearer.describe();
    const Reply session =
        call(allotd_.port(), "POST", "/api/v1/sessions", "", json{{"idToken", token}}.dump());
    EXPECT_EQ(session.status, 401) << reason << ": " << session.describe();
    EXPECT_NE(session.json.value("message", "").find(reason), std::string::npos)
        << session.describe();
  }

  std::string issuer_;
};

// Runs the real allot binary with its own credentials file; `on_line` sees
// each line of its output as it comes (the device flow's code).
struct CliRun {
  int exit_code = -1;
  std::string output;
};

CliRun run_allot(const std::string& credentials, int port, const std::string& args,
                 const std::function<void(const std::string&)>& on_line = {}) {
  const std::string command =
      "ALLOT_CREDENTIALS=" + shell_quote(credentials) +
      " ALLOT_TOKEN= ALLOT_SERVER=http://127.0.0.1:" + std::to_string(port) + " " + ALLOT_CLI +
      " " + args + " 2>&1";
  CliRun run;
  std::FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> line{};
  while (std::fgets(line.data(), line.size(), pipe) != nullptr) {
    run.output += line.data();
    if (on_line) on_line(line.data());
  }
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// "To log in, open URI and enter the code CODE" -> CODE.
std::string user_code_in(const std::string& line) {
  const std::string marker = "enter the code ";
  const size_t at = line.find(marker);
  if (at == std::string::npos) return "";
  std::string code = line.substr(at + marker.size());
  while (!code.empty() && (code.back() == '\n' || code.back() == ' ')) code.pop_back();
  return code;
}

TEST_F(OidcAllotdTest, TheLoginConfigNamesTheIssuerWithoutAuthentication) {
  const Reply config = call(allotd_.port(), "GET", "/api/v1/authconfig", "");

  ASSERT_EQ(config.status, 200) << config.describe();
  const json& oidc = config.json["oidc"];
  EXPECT_EQ(oidc.value("issuer", ""), issuer_);
  EXPECT_EQ(oidc.value("clientId", ""), kClient);
  EXPECT_EQ(oidc.value("scopes", ""), "openid profile groups");
  EXPECT_EQ(oidc.value("deviceAuthorizationEndpoint", ""), issuer_ + "/device/auth");
  EXPECT_EQ(oidc.value("tokenEndpoint", ""), issuer_ + "/token");
  // The local provider always answers: directory users provisioned with a password.
  EXPECT_EQ(config.json.value("localLogin", false), true);
}

TEST_F(OidcAllotdTest, TheCliLogsInWithTheDeviceGrantToASessionBoundToATeamAndRole) {
  const std::string credentials = temp_file("carol.json");
  std::string browser_error = "the CLI printed no user code";

  const CliRun login =
      run_allot(credentials, allotd_.port(), "login --team research --role team-member",
                [&](const std::string& line) {
                  const std::string code = user_code_in(line);
                  if (code.empty()) return;
                  oidc::testing::TestBrowser browser(issuer_);
                  browser_error = browser.approve(code, "carol", "carol-password");
                });

  ASSERT_EQ(browser_error, "");
  ASSERT_EQ(login.exit_code, 0) << login.output;
  EXPECT_NE(login.output.find("open " + issuer_ + "/device"), std::string::npos) << login.output;
  EXPECT_NE(login.output.find("logged in as carol in team research as team-member"),
            std::string::npos)
      << login.output;
  const CliRun whoami = run_allot(credentials, allotd_.port(), "whoami");
  EXPECT_EQ(whoami.exit_code, 0) << whoami.output;
  EXPECT_NE(whoami.output.find("subject: carol"), std::string::npos) << whoami.output;
  EXPECT_NE(whoami.output.find("platform-admins, research"), std::string::npos) << whoami.output;
  EXPECT_NE(whoami.output.find("team:    research"), std::string::npos) << whoami.output;
  EXPECT_NE(whoami.output.find("role:    team-member"), std::string::npos) << whoami.output;
  // A cluster administrator, but the session acts as a team-member of research only.
  const CliRun elsewhere =
      run_allot(credentials, allotd_.port(), "auth can-i cancel workloads -n prod");
  EXPECT_EQ(elsewhere.exit_code, 1) << elsewhere.output;
  EXPECT_EQ(
      run_allot(credentials, allotd_.port(), "auth can-i cancel workloads -n research").exit_code,
      0);

  // kubectl's exec plugin gets the same session.
  const CliRun exec = run_allot(credentials, allotd_.port(), "auth token --exec-credential");
  ASSERT_EQ(exec.exit_code, 0) << exec.output;
  const json credential = json::parse(exec.output, nullptr, false);
  ASSERT_TRUE(credential.is_object()) << exec.output;
  EXPECT_EQ(credential.value("apiVersion", ""), "client.authentication.k8s.io/v1");
  EXPECT_EQ(credential.value("kind", ""), "ExecCredential");
  const std::string token = credential["status"].value("token", "");
  EXPECT_FALSE(credential["status"].value("expirationTimestamp", "").empty());
  const Reply me = call(allotd_.port(), "GET", "/api/v1/whoami", token);
  EXPECT_EQ(me.status, 200) << me.describe();
  EXPECT_EQ(me.json.value("subject", ""), "carol");
  EXPECT_EQ(me.json.value("role", ""), "team-member");
}

TEST_F(OidcAllotdTest, AnIdTokenIsAcceptedAsABearerAndOpensSessionsNoLongerThanItself) {
  const std::string id_token = device_login("carol");
  ASSERT_FALSE(id_token.empty());

  const Reply me = call(allotd_.port(), "GET", "/api/v1/whoami", id_token);
  ASSERT_EQ(me.status, 200) << me.describe();
  EXPECT_EQ(me.json.value("subject", ""), "carol");
  EXPECT_EQ(me.json["groups"], (json{"platform-admins", "research"}));
  EXPECT_EQ(call(allotd_.port(), "GET", "/api/v1/teams", id_token).status, 200)
      << "platform-admins is bound to cluster-admin";

  const Reply session = call(allotd_.port(), "POST", "/api/v1/sessions", "",
                             json{{"idToken", id_token}, {"ttlSeconds", 12 * 3600}}.dump());
  ASSERT_EQ(session.status, 201) << session.describe();
  const std::string payload =
      id_token.substr(id_token.find('.') + 1, id_token.rfind('.') - id_token.find('.') - 1);
  const json claims = json::parse(*oidc::base64url_decode(payload, "claims"));
  const int64_t exp = claims.value("exp", int64_t{0});
  EXPECT_LE(session.json.value("expiresAt", ""), format_rfc3339(Timestamp::from_millis(exp * 1000)))
      << "never after the ID token";

  // An issuer cannot grant allot's own groups: "system:admins" is dropped.
  const std::string posing =
      provider_key("test-rsa")
          .sign(claims_for(issuer_, "mallory",
                           {"system:admins", "system:serviceaccounts", "research"}));
  const Reply posed = call(allotd_.port(), "GET", "/api/v1/whoami", posing);
  ASSERT_EQ(posed.status, 200) << posed.describe();
  EXPECT_EQ(posed.json["groups"], (json{"research"}));
  EXPECT_EQ(call(allotd_.port(), "GET", "/api/v1/teams", posing).status, 403);
  expect_refused(provider_key("test-rsa").sign(claims_for(issuer_, "system:allotd", {})),
                 "names a reserved system: user");

  // Someone with no binding is who they are, and may hold no role.
  const std::string ada =
      provider_key("test-rsa").sign(claims_for(issuer_, "ada", {"research", "admins"}));
  EXPECT_EQ(call(allotd_.port(), "GET", "/api/v1/whoami", ada).json.value("subject", ""), "ada");
  const Reply refused =
      call(allotd_.port(), "POST", "/api/v1/sessions", "",
           json{{"idToken", ada}, {"team", "research"}, {"role", "team-viewer"}}.dump());
  EXPECT_EQ(refused.status, 403) << refused.describe();
  EXPECT_NE(refused.json.value("message", "").find("does not hold the role \"team-viewer\""),
            std::string::npos)
      << refused.describe();
}

TEST_F(OidcAllotdTest, ForgedAndMistakenTokensAreRefusedEachForItsReason) {
  const TestSigner key = provider_key("test-rsa");
  const json good = claims_for(issuer_, "carol", {"platform-admins"});
  ASSERT_EQ(call(allotd_.port(), "GET", "/api/v1/whoami", key.sign(good)).status, 200)
      << "the provider's key signs tokens allotd accepts";

  json wrong_issuer = good;
  wrong_issuer["iss"] = "http://127.0.0.1:1";
  expect_refused(key.sign(wrong_issuer), "claim iss is not the configured issuer");
  json wrong_audience = good;
  wrong_audience["aud"] = "allot-cli-es";
  expect_refused(key.sign(wrong_audience), "claim aud does not contain the client id");
  json expired = good;
  expired["exp"] = now_seconds() - 3600;
  expect_refused(key.sign(expired), "claim exp is past");
  json early = good;
  early["nbf"] = now_seconds() + 3600;
  expect_refused(key.sign(early), "claim nbf is in the future");

  // The signature of one set of claims on another.
  const std::string signed_token = key.sign(good);
  json elevated = good;
  elevated["sub"] = elevated["preferred_username"] = "mallory";
  const std::string forged_claims = key.sign(elevated);
  const std::string tampered = forged_claims.substr(0, forged_claims.rfind('.')) +
                               signed_token.substr(signed_token.rfind('.'));
  expect_refused(tampered, "bad signature");

  expect_refused(oidc::testing::unsigned_token(good), "alg is not an allowed algorithm");
  expect_refused(oidc::testing::hs256_token(good, key.public_pem(), "test-rsa"),
                 "alg is not an allowed algorithm");
  // A key the issuer never published.
  expect_refused(TestSigner::rsa("test-rsa").sign(good), "bad signature");
  expect_refused(TestSigner::rsa("not-published").sign(good), "no key of the issuer");
}

TEST_F(OidcAllotdTest, ATokenSignedWithARotatedInKeyIsAcceptedAfterTheJwksRefetch) {
  // allotd has the issuer's keys of now.
  const json claims = claims_for(issuer_, "carol", {"platform-admins"});
  ASSERT_EQ(
      call(allotd_.port(), "GET", "/api/v1/whoami", provider_key("test-rsa").sign(claims)).status,
      200);

  httplib::Client issuer(issuer_);
  const httplib::Result rotated = issuer.Post("/test/rotate-keys");
  ASSERT_TRUE(rotated && rotated->status == 200);
  const std::string new_kid = json::parse(rotated->body).value("kid", "");
  const std::string id_token = device_login("carol");
  ASSERT_FALSE(id_token.empty());
  const json header =
      json::parse(*oidc::base64url_decode(id_token.substr(0, id_token.find('.')), "header"));
  ASSERT_EQ(header.value("kid", ""), new_kid) << "the issuer signs with its new key";

  const Reply me = call(allotd_.port(), "GET", "/api/v1/whoami", id_token);
  EXPECT_EQ(me.status, 200) << me.describe();
  EXPECT_EQ(me.json.value("subject", ""), "carol");
}

// No provider needed: an issuer that is down.
TEST(OidcIssuerDown, AllotdStartsAndServesAndSaysWhyOidcTokensCannotBeChecked) {
  AllotdProcess allotd;
  ASSERT_EQ(allotd.start({"--oidc-issuer", "http://127.0.0.1:1", "--oidc-client-id", kClient}), "");

  EXPECT_EQ(call(allotd.port(), "GET", "/readyz", "").status, 200);
  EXPECT_EQ(call(allotd.port(), "GET", "/api/v1/teams", allotd.admin_token()).status, 200)
      << "API tokens work without the issuer";
  const Reply config = call(allotd.port(), "GET", "/api/v1/authconfig", "");
  EXPECT_EQ(config.status, 200);
  EXPECT_EQ(config.json["oidc"].value("issuer", ""), "http://127.0.0.1:1");
  EXPECT_FALSE(config.json["oidc"].contains("deviceAuthorizationEndpoint"));
  EXPECT_NE(config.json["oidc"].value("discoveryError", "").find("discovery"), std::string::npos)
      << config.describe();
  json claims = claims_for("http://127.0.0.1:1", "carol", {"platform-admins"});
  const Reply bearer =
      call(allotd.port(), "GET", "/api/v1/whoami", TestSigner::rsa("k").sign(claims));
  EXPECT_EQ(bearer.status, 503) << bearer.describe();
  EXPECT_EQ(bearer.json.value("code", ""), "unavailable");
  EXPECT_NE(bearer.json.value("message", "").find("no JWKS from the issuer yet"), std::string::npos)
      << bearer.describe();
}

TEST(OidcFlags, AnIssuerThatIsNotHttpsOrMissingStopsAllotdWithTheReason) {
  AllotdProcess allotd;
  const std::string started =
      allotd.start({"--oidc-issuer", "http://idp.example.com", "--oidc-client-id", kClient},
                   std::chrono::seconds(10));

  EXPECT_NE(started.find("--oidc-issuer must be an https URL"), std::string::npos) << started;
  AllotdProcess without_issuer;
  const std::string alone =
      without_issuer.start({"--oidc-client-id", kClient}, std::chrono::seconds(10));
  EXPECT_NE(alone.find("--oidc-issuer is required with a client id"), std::string::npos) << alone;
}

}  // namespace
}  // namespace allot::server_test
