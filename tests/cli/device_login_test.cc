// `allot login` through the OIDC device flow (cli/verbs/device_login.h),
// in-process: FakeAllotd serves GET /api/v1/authconfig and POST
// /api/v1/sessions, a scripted identity provider answers the device flow's
// requests, and the clock is a ManualClock that the injected sleep
// advances, so no test waits out an interval.
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "backends/sim/virtual_executor.h"
#include "base/clock.h"
#include "cli/client/credentials.h"
#include "cli/verbs/cli_app.h"
#include "fake_allotd.h"

namespace allot::cli {
namespace {

using nlohmann::json;
using testing::FakeAllotd;

constexpr char kIssuer[] = "https://idp.example.com";
constexpr char kDeviceEndpoint[] = "https://idp.example.com/device/auth";
constexpr char kTokenEndpoint[] = "https://idp.example.com/token";
constexpr char kIdToken[] = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJhbmEifQ.c2lnbmF0dXJl";

// The identity provider's side of the device flow, scripted.
class ScriptedProvider final : public oidc::HttpPort {
 public:
  Result<oidc::HttpReply> get(const std::string& url) override {
    gets.push_back(url);
    if (url != std::string(kIssuer) + "/.well-known/openid-configuration") return reply(404, {});
    return reply(200, {{"issuer", kIssuer},
                       {"jwks_uri", std::string(kIssuer) + "/jwks"},
                       {"device_authorization_endpoint", kDeviceEndpoint},
                       {"token_endpoint", kTokenEndpoint}});
  }

  Result<oidc::HttpReply> post_form(const std::string& url,
                                    const oidc::FormFields& fields) override {
    posts.emplace_back(url, fields);
    if (url == kDeviceEndpoint) {
      return reply(200, {{"device_code", "device-code-1"},
                         {"user_code", "WDJB-MJHT"},
                         {"verification_uri", std::string(kIssuer) + "/device"},
                         {"verification_uri_complete", std::string(kIssuer) + "/device?c=WDJB"},
                         {"expires_in", expires_in},
                         {"interval", 5}});
    }
    if (token_replies.empty()) return reply(400, {{"error", "authorization_pending"}});
    oidc::HttpReply next = token_replies.front();
    token_replies.pop_front();
    return next;
  }

  static oidc::HttpReply reply(int status, const json& body) { return {status, body.dump()}; }
  void answer_error(const std::string& code) {
    token_replies.push_back(reply(400, {{"error", code}}));
  }
  void answer_tokens(bool with_id_token = true) {
    json tokens = {{"access_token", "access-1"}, {"token_type", "Bearer"}, {"expires_in", 3600}};
    if (with_id_token) tokens["id_token"] = kIdToken;
    token_replies.push_back(reply(200, tokens));
  }

  int expires_in = 600;
  std::deque<oidc::HttpReply> token_replies;
  std::vector<std::string> gets;
  std::vector<std::pair<std::string, oidc::FormFields>> posts;
};

struct Outcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

class DeviceLoginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    credentials_ = ::testing::TempDir() + "allot_device_login_" +
                   ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json";
    std::filesystem::remove(credentials_);
    ::setenv("ALLOT_CREDENTIALS", credentials_.c_str(), 1);
    server_.reply("GET", "/api/v1/authconfig", 200, authconfig());
    server_.on("POST", "/api/v1/sessions", [](const httplib::Request& req, httplib::Response& res) {
      const json body = json::parse(req.body);
      testing::set_json(res, 201,
                        {{"token", "allots_session-for-" + body.value("idToken", "")},
                         {"expiresAt", "2027-01-15T09:00:00.000Z"},
                         {"subject", "ana"},
                         {"groups", {"research"}},
                         {"team", body.value("team", "")},
                         {"role", body.value("role", "")}});
    });
  }
  void TearDown() override { ::unsetenv("ALLOT_CREDENTIALS"); }

  static json authconfig(bool with_endpoints = true) {
    json oidc = {{"issuer", kIssuer}, {"clientId", "allot"}, {"scopes", "openid profile groups"}};
    if (with_endpoints) {
      oidc["deviceAuthorizationEndpoint"] = kDeviceEndpoint;
      oidc["tokenEndpoint"] = kTokenEndpoint;
    }
    return {{"oidc", oidc}, {"localLogin", false}};
  }

  Outcome login(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"login", "--server", server_.url()};
    args.insert(args.end(), extra.begin(), extra.end());
    std::ostringstream out;
    std::ostringstream err;
    CliIo io{
        .out = out,
        .err = err,
        .simulator = sim::virtual_executor_factory(),
        .login = {.identity_provider = &provider_, .clock = &clock_, .sleep = [this](Duration d) {
                    sleeps_.push_back(d.ms() / 1000);
                    clock_.advance(d);
                  }}};
    const int code = run_cli(args, std::move(io));
    return {code, out.str(), err.str()};
  }

  FakeAllotd server_;
  ScriptedProvider provider_;
  ManualClock clock_{Timestamp::from_millis(int64_t{1'800'000'000} * 1000)};
  std::vector<int64_t> sleeps_;
  std::string credentials_;
};

TEST_F(DeviceLoginTest, ShowsTheCodePollsAsAskedThenSavesTheSessionOfTheIdToken) {
  provider_.answer_error("authorization_pending");
  provider_.answer_error("slow_down");
  provider_.answer_error("authorization_pending");
  provider_.answer_tokens();

  const Outcome outcome = login({"--team", "research", "--role", "team-member"});

  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("open https://idp.example.com/device and enter the code WDJB-MJHT"),
            std::string::npos)
      << outcome.out;
  EXPECT_NE(outcome.out.find("logged in as ana in team research as team-member"),
            std::string::npos);
  EXPECT_EQ(sleeps_, (std::vector<int64_t>{5, 5, 10, 10})) << "slow_down adds 5 s for good";
  ASSERT_EQ(provider_.posts.size(), 5U);
  EXPECT_EQ(provider_.posts[0].second,
            (oidc::FormFields{{"client_id", "allot"}, {"scope", "openid profile groups"}}));
  const auto sessions = server_.requests_to("POST", "/api/v1/sessions");
  ASSERT_EQ(sessions.size(), 1U);
  EXPECT_EQ(json::parse(sessions[0].body),
            (json{{"idToken", kIdToken}, {"team", "research"}, {"role", "team-member"}}));
  const auto saved = read_saved_session(credentials_, server_.url());
  ASSERT_TRUE(saved.ok() && saved->has_value());
  EXPECT_EQ((*saved)->token, std::string("allots_session-for-") + kIdToken);
  EXPECT_EQ(outcome.out.find(kIdToken), std::string::npos) << "no token printed";
}

TEST_F(DeviceLoginTest, AccessDeniedEndsTheLoginWithAClearError) {
  provider_.answer_error("authorization_pending");
  provider_.answer_error("access_denied");

  const Outcome outcome = login();

  EXPECT_NE(outcome.exit_code, 0);
  EXPECT_NE(outcome.err.find("login refused: the identity provider answered access_denied"),
            std::string::npos)
      << outcome.err;
  EXPECT_TRUE(server_.requests_to("POST", "/api/v1/sessions").empty());
  EXPECT_FALSE(std::filesystem::exists(credentials_));
}

TEST_F(DeviceLoginTest, AnExpiredDeviceCodeSaysToLogInAgain) {
  provider_.answer_error("expired_token");

  const Outcome outcome = login();

  EXPECT_NE(outcome.exit_code, 0);
  EXPECT_NE(outcome.err.find("login timed out: the code expired before it was approved"),
            std::string::npos)
      << outcome.err;
}

TEST_F(DeviceLoginTest, ALoginNeverApprovedStopsAtTheCodesExpiry) {
  provider_.expires_in = 12;  // and every poll answers authorization_pending

  const Outcome outcome = login();

  EXPECT_NE(outcome.exit_code, 0);
  EXPECT_NE(outcome.err.find("login timed out"), std::string::npos) << outcome.err;
  int64_t waited = 0;
  for (int64_t s : sleeps_) waited += s;
  EXPECT_LE(waited, 12) << "never polls past the code's expiry";
  EXPECT_EQ(provider_.posts.size(), 3U) << "the start and polls at 5 s and 10 s";
}

TEST_F(DeviceLoginTest, TheEndpointsAreDiscoveredAtTheIssuerWhenAllotdCouldNot) {
  server_.reply("GET", "/api/v1/authconfig", 200, authconfig(false));
  provider_.answer_tokens();

  const Outcome outcome = login();

  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(provider_.gets,
            std::vector<std::string>{std::string(kIssuer) + "/.well-known/openid-configuration"});
  EXPECT_EQ(provider_.posts[0].first, kDeviceEndpoint);
}

TEST_F(DeviceLoginTest, TokensWithoutAnIdTokenAreNotALogin) {
  provider_.answer_tokens(/*with_id_token=*/false);

  const Outcome outcome = login();

  EXPECT_NE(outcome.exit_code, 0);
  EXPECT_NE(outcome.err.find("without an ID token"), std::string::npos) << outcome.err;
  EXPECT_TRUE(server_.requests_to("POST", "/api/v1/sessions").empty());
}

TEST_F(DeviceLoginTest, AnAllotdWithoutOidcSaysHowElseToLogIn) {
  server_.reply("GET", "/api/v1/authconfig", 200, {{"oidc", nullptr}, {"localLogin", false}});

  const Outcome outcome = login();

  EXPECT_NE(outcome.exit_code, 0);
  EXPECT_NE(outcome.err.find("has no OIDC login"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find("--token-file"), std::string::npos);
  EXPECT_TRUE(provider_.posts.empty());
}

TEST_F(DeviceLoginTest, OidcAndATokenFileAreOneLoginTooMany) {
  const Outcome outcome = login({"--oidc", "--token-file", "/dev/null"});

  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_NE(outcome.err.find("excludes"), std::string::npos) << outcome.err;
}

}  // namespace
}  // namespace allot::cli
