#include "identity/oidc/device_flow.h"

#include <algorithm>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/check.h"
#include "identity/oidc/strict_json.h"

namespace allot::oidc {
namespace {

using Json = nlohmann::json;

constexpr Duration kMinInterval = Duration::seconds(1);
constexpr Duration kMaxInterval = Duration::minutes(5);
constexpr Duration kSlowDownStep = Duration::seconds(5);
constexpr int64_t kMaxExpiresInSeconds = int64_t{24} * 3600;

Duration clamp_interval(Duration interval) {
  return std::clamp(interval, kMinInterval, kMaxInterval);
}

std::optional<std::string> string_member(const Json& doc, const char* name) {
  const auto it = doc.find(name);
  if (it == doc.end() || !it->is_string() || it->get_ref<const std::string&>().empty()) {
    return std::nullopt;
  }
  return it->get<std::string>();
}

// A positive integer number of seconds, at most `max`.
std::optional<int64_t> seconds_member(const Json& doc, const char* name, int64_t max) {
  const auto it = doc.find(name);
  if (it == doc.end() || !it->is_number_integer()) return std::nullopt;
  const int64_t value = it->get<int64_t>();
  if (value <= 0) return std::nullopt;
  return std::min(value, max);
}

Result<TokenSet> parse_token_set(const Json& doc) {
  TokenSet tokens;
  auto access = string_member(doc, "access_token");
  auto type = string_member(doc, "token_type");
  if (!access || !type) {
    return Status(ErrorCode::kUnavailable, "token response lacks access_token or token_type");
  }
  tokens.access_token = std::move(*access);
  tokens.token_type = std::move(*type);
  tokens.id_token = string_member(doc, "id_token");
  tokens.refresh_token = string_member(doc, "refresh_token");
  if (auto expires = seconds_member(doc, "expires_in", INT32_MAX)) {
    tokens.expires_in = Duration::seconds(*expires);
  }
  return tokens;
}

}  // namespace

FormFields device_authorization_form(const DeviceFlowConfig& config) {
  return {{"client_id", config.client_id}, {"scope", config.scope}};
}

Result<DeviceAuthorization> parse_device_authorization(const HttpReply& reply, Timestamp now) {
  auto doc = parse_strict_json(reply.body, "device authorization response");
  if (reply.status != 200) {
    std::string code = doc.ok() && doc->is_object() ? doc->value("error", std::string()) : "";
    return Status(ErrorCode::kUnavailable, "device authorization refused (HTTP " +
                                               std::to_string(reply.status) +
                                               (code.empty() ? "" : ", " + code) + ")");
  }
  if (!doc.ok()) return doc.status();
  if (!doc->is_object()) return invalid_argument("device authorization response is not an object");
  DeviceAuthorization out;
  auto device_code = string_member(*doc, "device_code");
  auto user_code = string_member(*doc, "user_code");
  auto uri = string_member(*doc, "verification_uri");
  auto expires_in = seconds_member(*doc, "expires_in", kMaxExpiresInSeconds);
  if (!device_code || !user_code || !uri || !expires_in) {
    return invalid_argument(
        "device authorization response lacks device_code, user_code, verification_uri or "
        "expires_in");
  }
  out.device_code = std::move(*device_code);
  out.user_code = std::move(*user_code);
  out.verification_uri = std::move(*uri);
  out.verification_uri_complete = string_member(*doc, "verification_uri_complete");
  out.expires_at = now + Duration::seconds(*expires_in);
  if (auto interval = seconds_member(*doc, "interval", 3600)) {
    out.interval = Duration::seconds(*interval);
  }
  out.interval = clamp_interval(out.interval);
  return out;
}

DevicePoller::DevicePoller(std::string client_id, DeviceAuthorization authorization, Timestamp now)
    : client_id_(std::move(client_id)),
      authorization_(std::move(authorization)),
      interval_(clamp_interval(authorization_.interval)),
      next_poll_at_(now + interval_) {}

DevicePoller::Action DevicePoller::next(Timestamp now) {
  if (tokens_) return Action::kDone;
  if (!error_.ok()) return Action::kFailed;
  if (now >= authorization_.expires_at || next_poll_at_ >= authorization_.expires_at) {
    fail({ErrorCode::kFailedPrecondition, "the device code expired before the login finished"});
    return Action::kFailed;
  }
  return now < next_poll_at_ ? Action::kWait : Action::kPoll;
}

FormFields DevicePoller::poll_form() const {
  return {{"grant_type", kDeviceCodeGrant},
          {"device_code", authorization_.device_code},
          {"client_id", client_id_}};
}

const TokenSet& DevicePoller::tokens() const {
  ALLOT_CHECK(tokens_.has_value());
  return *tokens_;
}

void DevicePoller::fail(Status error) { error_ = std::move(error); }

void DevicePoller::on_error_code(const std::string& code, Timestamp now) {
  if (code == "authorization_pending") {
    next_poll_at_ = now + interval_;
  } else if (code == "slow_down") {
    interval_ = std::min(interval_ + kSlowDownStep, kMaxInterval);
    next_poll_at_ = now + interval_;
  } else if (code == "access_denied") {
    fail({ErrorCode::kPermissionDenied, "the login was denied at the identity provider"});
  } else if (code == "expired_token") {
    fail({ErrorCode::kFailedPrecondition, "the device code expired before the login finished"});
  } else {
    fail({ErrorCode::kUnauthenticated,
          "the token endpoint refused the device code" + (code.empty() ? "" : " (" + code + ")")});
  }
}

void DevicePoller::on_reply(const Result<HttpReply>& reply, Timestamp now) {
  if (tokens_ || !error_.ok()) return;
  if (!reply.ok() || reply->status >= 500) {  // section 3.5: back off and retry
    interval_ = std::min(interval_ * 2, kMaxInterval);
    next_poll_at_ = now + interval_;
    return;
  }
  auto doc = parse_strict_json(reply->body, "token response");
  if (!doc.ok() || !doc->is_object()) {
    fail({ErrorCode::kUnavailable, "the token endpoint's answer is not a JSON object"});
    return;
  }
  if (reply->status == 200) {
    auto tokens = parse_token_set(*doc);
    if (tokens.ok()) {
      tokens_ = std::move(tokens).value();
    } else {
      fail(tokens.status());
    }
    return;
  }
  const auto code = doc->find("error");
  on_error_code(code != doc->end() && code->is_string() ? code->get<std::string>() : "", now);
}

Result<TokenSet> run_device_flow(const DeviceFlowConfig& config, HttpPort& http, const Clock& clock,
                                 const std::function<void(Duration)>& sleep,
                                 const std::function<void(const DeviceAuthorization&)>& show) {
  ALLOT_ASSIGN_OR_RETURN(HttpReply started, http.post_form(config.device_authorization_endpoint,
                                                           device_authorization_form(config)));
  ALLOT_ASSIGN_OR_RETURN(DeviceAuthorization authorization,
                         parse_device_authorization(started, clock.now()));
  show(authorization);
  DevicePoller poller(config.client_id, std::move(authorization), clock.now());
  while (true) {
    const Timestamp now = clock.now();
    switch (poller.next(now)) {
      case DevicePoller::Action::kDone: return poller.tokens();
      case DevicePoller::Action::kFailed: return poller.error();
      case DevicePoller::Action::kWait: sleep(poller.next_poll_at() - now); break;
      case DevicePoller::Action::kPoll:
        poller.on_reply(http.post_form(config.token_endpoint, poller.poll_form()), clock.now());
        break;
    }
  }
}

}  // namespace allot::oidc
