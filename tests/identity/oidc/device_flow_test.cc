// The device authorization grant's state machine: a table of token-endpoint
// answers and the action each must lead to, then the driver end to end with a
// fake HttpPort and a ManualClock.
#include "identity/oidc/device_flow.h"

#include <deque>

#include <gtest/gtest.h>

namespace allot::oidc {
namespace {

using Action = DevicePoller::Action;

constexpr Timestamp kStart = Timestamp::from_millis(1'000'000);

Timestamp at(int64_t seconds) { return kStart + Duration::seconds(seconds); }

DeviceAuthorization authorization(int64_t expires_in = 600, int64_t interval = 5) {
  DeviceAuthorization out;
  out.device_code = "dev-code";
  out.user_code = "ABCD-EFGH";
  out.verification_uri = "https://idp.example.com/device";
  out.expires_at = kStart + Duration::seconds(expires_in);
  out.interval = Duration::seconds(interval);
  return out;
}

HttpReply error_reply(const std::string& code) { return {400, R"({"error":")" + code + R"("})"}; }

struct Row {
  const char* name;
  Result<HttpReply> reply;
  Action expected;
  int64_t next_poll_after;  // seconds after the answer (kWait/kPoll rows)
  ErrorCode error = ErrorCode::kOk;
};

TEST(OidcDeviceFlow, EachAnswerLeadsToItsAction) {
  const std::vector<Row> rows = {
      {"pending", error_reply("authorization_pending"), Action::kWait, 5},
      {"slow down", error_reply("slow_down"), Action::kWait, 10},
      {"denied", error_reply("access_denied"), Action::kFailed, 0, ErrorCode::kPermissionDenied},
      {"expired", error_reply("expired_token"), Action::kFailed, 0, ErrorCode::kFailedPrecondition},
      {"invalid grant", error_reply("invalid_grant"), Action::kFailed, 0,
       ErrorCode::kUnauthenticated},
      {"400 without error", HttpReply{400, "{}"}, Action::kFailed, 0, ErrorCode::kUnauthenticated},
      {"timeout", Status(ErrorCode::kUnavailable, "timeout"), Action::kWait, 10},
      {"503", HttpReply{503, "busy"}, Action::kWait, 10},
      {"not json", HttpReply{400, "<html>"}, Action::kFailed, 0, ErrorCode::kUnavailable},
      {"200 without token", HttpReply{200, R"({"token_type":"Bearer"})"}, Action::kFailed, 0,
       ErrorCode::kUnavailable},
      {"tokens",
       HttpReply{200, R"({"access_token":"at","token_type":"Bearer","id_token":"it",)"
                      R"("refresh_token":"rt","expires_in":3600})"},
       Action::kDone, 0},
  };
  for (const Row& row : rows) {
    SCOPED_TRACE(row.name);
    DevicePoller poller("allot", authorization(), kStart);
    EXPECT_EQ(poller.next(at(4)), Action::kWait);
    ASSERT_EQ(poller.next(at(5)), Action::kPoll);
    poller.on_reply(row.reply, at(5));
    const Action action = poller.next(at(5));
    EXPECT_EQ(action, row.expected);
    if (action == Action::kWait) {
      EXPECT_EQ(poller.next_poll_at(), at(5 + row.next_poll_after));
      EXPECT_EQ(poller.next(at(5 + row.next_poll_after)), Action::kPoll);
    } else if (action == Action::kFailed) {
      EXPECT_EQ(poller.error().code(), row.error) << poller.error().to_string();
      EXPECT_EQ(poller.error().message().find("dev-code"), std::string::npos);
    } else if (action == Action::kDone) {
      EXPECT_EQ(poller.tokens().access_token, "at");
      EXPECT_EQ(poller.tokens().id_token, "it");
      EXPECT_EQ(poller.tokens().refresh_token, "rt");
      EXPECT_EQ(poller.tokens().expires_in, Duration::seconds(3600));
    }
  }
}

TEST(OidcDeviceFlow, SlowDownAccumulatesAndPollFormIsRfc8628) {
  DevicePoller poller("allot", authorization(), kStart);
  poller.on_reply(error_reply("slow_down"), at(5));
  poller.on_reply(error_reply("slow_down"), at(15));
  EXPECT_EQ(poller.interval(), Duration::seconds(15));
  poller.on_reply(error_reply("authorization_pending"), at(30));
  EXPECT_EQ(poller.next_poll_at(), at(45)) << "pending keeps the slowed interval";
  EXPECT_EQ(poller.poll_form(),
            (FormFields{{"grant_type", "urn:ietf:params:oauth:grant-type:device_code"},
                        {"device_code", "dev-code"},
                        {"client_id", "allot"}}));
}

TEST(OidcDeviceFlow, NeverPollsPastTheCodesExpiry) {
  DevicePoller poller("allot", authorization(/*expires_in=*/12), kStart);
  ASSERT_EQ(poller.next(at(5)), Action::kPoll);
  poller.on_reply(error_reply("authorization_pending"), at(5));
  EXPECT_EQ(poller.next(at(6)), Action::kWait);
  poller.on_reply(error_reply("authorization_pending"), at(10));  // next at 15 > 12
  EXPECT_EQ(poller.next(at(10)), Action::kFailed);
  EXPECT_EQ(poller.error().code(), ErrorCode::kFailedPrecondition);
}

TEST(OidcDeviceFlow, ParsesTheDeviceAuthorizationResponse) {
  auto parsed = parse_device_authorization(
      {200, R"({"device_code":"d","user_code":"U","verification_uri":"https://i/device",)"
            R"("verification_uri_complete":"https://i/device?u=U","expires_in":600})"},
      kStart);
  ASSERT_TRUE(parsed.ok()) << parsed.status().to_string();
  EXPECT_EQ(parsed->interval, Duration::seconds(5)) << "RFC 8628 default";
  EXPECT_EQ(parsed->expires_at, at(600));
  EXPECT_EQ(parsed->verification_uri_complete, "https://i/device?u=U");
  auto fast = parse_device_authorization(
      {200, R"({"device_code":"d","user_code":"U","verification_uri":"u","expires_in":60,)"
            R"("interval":0})"},
      kStart);
  ASSERT_TRUE(fast.ok());
  EXPECT_EQ(fast->interval, Duration::seconds(5)) << "0 is not a positive interval";
  for (const char* body :
       {R"({"user_code":"U","verification_uri":"u","expires_in":60})",
        R"({"device_code":"d","user_code":"U","verification_uri":"u"})", R"([])", "nope"}) {
    EXPECT_FALSE(parse_device_authorization({200, body}, kStart).ok()) << body;
  }
  auto refused = parse_device_authorization({401, R"({"error":"invalid_client"})"}, kStart);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("invalid_client"), std::string::npos);
}

// Answers POSTs from a script and records them.
class ScriptedHttp final : public HttpPort {
 public:
  std::deque<Result<HttpReply>> answers;
  std::vector<std::pair<std::string, FormFields>> posts;

  Result<HttpReply> get(const std::string&) override {
    return Status(ErrorCode::kInternal, "no GET expected");
  }
  Result<HttpReply> post_form(const std::string& url, const FormFields& fields) override {
    posts.emplace_back(url, fields);
    Result<HttpReply> answer = answers.front();
    answers.pop_front();
    return answer;
  }
};

TEST(OidcDeviceFlow, DriverStartsShowsThePromptAndPollsUntilTokens) {
  ScriptedHttp http;
  http.answers = {
      HttpReply{200, R"({"device_code":"d","user_code":"WXYZ","verification_uri":"https://i/d",)"
                     R"("expires_in":300,"interval":2})"},
      error_reply("authorization_pending"), error_reply("slow_down"),
      Status(ErrorCode::kUnavailable, "reset"),
      HttpReply{200, R"({"access_token":"at","token_type":"Bearer","id_token":"it"})"}};
  ManualClock clock(kStart);
  std::vector<Duration> sleeps;
  std::string shown;
  DeviceFlowConfig config{.client_id = "allot",
                          .device_authorization_endpoint = "https://i/device_authorization",
                          .token_endpoint = "https://i/token"};
  auto tokens = run_device_flow(
      config, http, clock,
      [&](Duration d) {
        sleeps.push_back(d);
        clock.advance(d);
      },
      [&](const DeviceAuthorization& a) { shown = a.user_code; });
  ASSERT_TRUE(tokens.ok()) << tokens.status().to_string();
  EXPECT_EQ(tokens->id_token, "it");
  EXPECT_EQ(shown, "WXYZ");
  EXPECT_EQ(sleeps, (std::vector<Duration>{Duration::seconds(2), Duration::seconds(2),
                                           Duration::seconds(7), Duration::seconds(14)}));
  ASSERT_EQ(http.posts.size(), 5u);
  EXPECT_EQ(http.posts[0].first, "https://i/device_authorization");
  EXPECT_EQ(http.posts[0].second,
            (FormFields{{"client_id", "allot"}, {"scope", "openid profile email offline_access"}}));
  EXPECT_EQ(http.posts[1].first, "https://i/token");
}

}  // namespace
}  // namespace allot::oidc
