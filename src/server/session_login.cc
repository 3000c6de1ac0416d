#include "server/session_login.h"

#include <algorithm>
#include <cstdint>

#include "api/rfc3339.h"
#include "server/http_responses.h"

namespace allot::server {
namespace {

// An OIDC ID token alone may be 16 KiB (identity/oidc/jwt.h).
constexpr size_t kMaxAccessBody = size_t{32} << 10;

}  // namespace

// The body as a JSON object, or an answer sent.
std::optional<nlohmann::json> json_object_body(const HttpRequest& req, HttpResponse& res) {
  if (req.body.size() > kMaxAccessBody) {
    send_error(res, invalid_argument("the body is larger than 32 KiB"));
    return std::nullopt;
  }
  nlohmann::json body = nlohmann::json::parse(req.body, nullptr, false);
  if (!body.is_object()) {
    send_error(res, invalid_argument("the body must be a JSON object"));
    return std::nullopt;
  }
  return body;
}

Result<std::string> string_member(const nlohmann::json& body, const char* key) {
  if (!body.contains(key)) return std::string();
  if (!body[key].is_string()) return invalid_argument(std::string(key) + " must be a string", key);
  return body[key].get<std::string>();
}

namespace {

// What every login may say besides its credential: "team", "role", "ttlSeconds".
struct SessionScopeRequest {
  std::string team;
  std::string role;
  std::optional<Duration> lifetime;
};

Result<SessionScopeRequest> session_scope_of(const nlohmann::json& body) {
  SessionScopeRequest scope;
  ALLOT_ASSIGN_OR_RETURN(scope.team, string_member(body, "team"));
  ALLOT_ASSIGN_OR_RETURN(scope.role, string_member(body, "role"));
  if (body.contains("ttlSeconds")) {
    if (!body["ttlSeconds"].is_number_integer() || body["ttlSeconds"].get<int64_t>() <= 0) {
      return invalid_argument("ttlSeconds must be a positive integer", "ttlSeconds");
    }
    // Capped before it becomes milliseconds: no session outlives 12 hours
    // (access_control.h), and a huge number must not overflow.
    constexpr int64_t kLongest = int64_t{12} * 3600;
    scope.lifetime = Duration::seconds(std::min(body["ttlSeconds"].get<int64_t>(), kLongest));
  }
  return scope;
}

Result<SessionRequest> session_request_of(const nlohmann::json& body) {
  SessionRequest request;
  ALLOT_ASSIGN_OR_RETURN(request.token, string_member(body, "token"));
  ALLOT_ASSIGN_OR_RETURN(request.id_token, string_member(body, "idToken"));
  if (!request.token.empty() && !request.id_token.empty()) {
    return invalid_argument("a session has one credential: token or idToken, not both", "idToken");
  }
  if (request.token.empty() && request.id_token.empty()) {
    return invalid_argument(
        "a session needs a credential: {\"token\": API_TOKEN}, {\"idToken\": OIDC_ID_TOKEN} or "
        "{\"username\", \"password\"}",
        "token");
  }
  ALLOT_ASSIGN_OR_RETURN(SessionScopeRequest scope, session_scope_of(body));
  request.team = std::move(scope.team);
  request.role = std::move(scope.role);
  request.lifetime = scope.lifetime;
  return request;
}

// The local provider's login: {"username", "password"[, "team", "role", "ttlSeconds"]}.
Result<OpenedSession> open_password_session(AccessControl& access, const nlohmann::json& body) {
  PasswordSessionRequest request;
  ALLOT_ASSIGN_OR_RETURN(request.user_name, string_member(body, "username"));
  ALLOT_ASSIGN_OR_RETURN(request.password, string_member(body, "password"));
  if (request.user_name.empty() || request.password.empty()) {
    return invalid_argument("a local login needs {\"username\", \"password\"}", "username");
  }
  ALLOT_ASSIGN_OR_RETURN(SessionScopeRequest scope, session_scope_of(body));
  request.team = std::move(scope.team);
  request.role = std::move(scope.role);
  request.lifetime = scope.lifetime;
  return access.open_password_session(request);
}

}  // namespace

Result<OpenedSession> open_session_from(AccessControl& access, const nlohmann::json& body) {
  if (body.contains("username")) return open_password_session(access, body);
  ALLOT_ASSIGN_OR_RETURN(const SessionRequest request, session_request_of(body));
  return access.open_session(request);
}

nlohmann::json session_json(const identity::SessionClaims& claims) {
  return {{"expiresAt", format_rfc3339(claims.expires_at)},
          {"subject", claims.subject},
          {"groups", claims.groups},
          {"team", claims.team},
          {"role", claims.role}};
}

}  // namespace allot::server
