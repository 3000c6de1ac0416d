// The OAuth 2.0 device authorization grant (RFC 8628), client side, for
// `allot login`: a pure state machine (DevicePoller) and a small driver
// (run_device_flow) that performs its requests through HttpPort.
//
// Contract:
// - start: POST device_authorization_endpoint {client_id, scope}; the answer
//   must carry device_code, user_code, verification_uri and expires_in;
//   `interval` defaults to 5 s (section 3.2) and is clamped to [1 s, 5 min].
// - DevicePoller says what to do at `now`: wait until next_poll_at(), poll,
//   or stop (done with tokens, or failed with a Status). After each answer
//   of the token endpoint (on_reply):
//     200 with access_token and token_type    -> done
//     authorization_pending                   -> poll again after interval
//     slow_down                               -> interval += 5 s, then poll
//     access_denied                           -> failed (kPermissionDenied)
//     expired_token, or the code's expiry     -> failed (kFailedPrecondition)
//     no answer (timeout, connection) or 5xx  -> interval doubles (section
//                                                3.5), poll again
//     any other error or a malformed answer   -> failed
//   It never polls past the device code's expiry.
// - Scope: "openid profile email offline_access" by default (ID token with
//   the profile claims, and a refresh token where the IdP grants one);
//   "groups" is not standard and some IdPs refuse unknown scopes, so it is
//   left to configuration (DeviceFlowConfig::scope).
// Nothing here reads a clock or sleeps: time and sleep are the caller's.
// Tokens are never put in Status messages. DevicePoller is a value,
// thread-compatible.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "base/clock.h"
#include "base/result.h"
#include "base/time.h"
#include "identity/oidc/http_port.h"

namespace allot::oidc {

inline constexpr char kDeviceCodeGrant[] = "urn:ietf:params:oauth:grant-type:device_code";

struct DeviceFlowConfig {
  std::string client_id;
  std::string device_authorization_endpoint;
  std::string token_endpoint;
  std::string scope = "openid profile email offline_access";
};

struct DeviceAuthorization {
  std::string device_code;
  std::string user_code;
  std::string verification_uri;
  std::optional<std::string> verification_uri_complete;
  Timestamp expires_at;
  Duration interval = Duration::seconds(5);
};

struct TokenSet {
  std::string access_token;
  std::string token_type;
  std::optional<std::string> id_token;
  std::optional<std::string> refresh_token;
  std::optional<Duration> expires_in;
};

// The device authorization request's form.
FormFields device_authorization_form(const DeviceFlowConfig& config);
// Reads the device authorization response received at `now`.
Result<DeviceAuthorization> parse_device_authorization(const HttpReply& reply, Timestamp now);

class DevicePoller {
 public:
  enum class Action { kWait, kPoll, kDone, kFailed };

  // The first poll is due one interval after `now`.
  DevicePoller(std::string client_id, DeviceAuthorization authorization, Timestamp now);

  // What to do at `now` (kWait: until next_poll_at()).
  [[nodiscard]] Action next(Timestamp now);
  // The token request's form.
  [[nodiscard]] FormFields poll_form() const;
  // The token endpoint's answer to a poll made at `now`, or why none came.
  void on_reply(const Result<HttpReply>& reply, Timestamp now);

  [[nodiscard]] Timestamp next_poll_at() const { return next_poll_at_; }
  [[nodiscard]] Duration interval() const { return interval_; }
  // REQUIRES: next() returned kDone.
  [[nodiscard]] const TokenSet& tokens() const;
  // REQUIRES: next() returned kFailed.
  [[nodiscard]] const Status& error() const { return error_; }

 private:
  void fail(Status error);
  void on_error_code(const std::string& code, Timestamp now);

  std::string client_id_;
  DeviceAuthorization authorization_;
  Duration interval_;
  Timestamp next_poll_at_;
  std::optional<TokenSet> tokens_;
  Status error_;
};

// Runs the whole grant: start, show the user code (`show`), poll until done.
// `sleep` blocks for a duration (tests advance a ManualClock instead).
Result<TokenSet> run_device_flow(const DeviceFlowConfig& config, HttpPort& http, const Clock& clock,
                                 const std::function<void(Duration)>& sleep,
                                 const std::function<void(const DeviceAuthorization&)>& show);

}  // namespace allot::oidc
