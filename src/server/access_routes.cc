// Sessions (the login), whoami, access reviews (`allot auth can-i`) and API
// token rotation (`allot token rotate`). docs/api.md, "Authentication".
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/rfc3339.h"
#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"

namespace allot::server {
namespace {

// What an access review asks about.
struct AccessRequestView {
  std::string verb;
  std::string resource;
  std::string namespace_name;
  std::string name;
  std::string user;  // empty: the caller
  std::vector<std::string> groups;
};

// An OIDC ID token alone may be 16 KiB (identity/oidc/jwt.h).
constexpr size_t kMaxAccessBody = size_t{32} << 10;

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

// A string member of `body` ("" when absent); an error when it is not a string.
Result<std::string> string_member(const nlohmann::json& body, const char* key) {
  if (!body.contains(key)) return std::string();
  if (!body[key].is_string()) return invalid_argument(std::string(key) + " must be a string", key);
  return body[key].get<std::string>();
}

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

Result<OpenedSession> session_of(AccessControl& access, const nlohmann::json& body) {
  if (body.contains("username")) return open_password_session(access, body);
  ALLOT_ASSIGN_OR_RETURN(const SessionRequest request, session_request_of(body));
  return access.open_session(request);
}

void open_session(AccessControl& access, const HttpRequest& req, HttpResponse& res) {
  const std::optional<nlohmann::json> body = json_object_body(req, res);
  if (!body) return;
  const Result<OpenedSession> session = session_of(access, *body);
  if (!session.ok()) return send_error(res, session.status());
  const identity::SessionClaims& claims = session->claims;
  send_json(res, 201,
            {{"token", session->token},
             {"expiresAt", format_rfc3339(claims.expires_at)},
             {"subject", claims.subject},
             {"groups", claims.groups},
             {"team", claims.team},
             {"role", claims.role}});
}

Result<AccessRequestView> review_request_of(const nlohmann::json& body) {
  AccessRequestView view;
  ALLOT_ASSIGN_OR_RETURN(view.verb, string_member(body, "verb"));
  ALLOT_ASSIGN_OR_RETURN(view.resource, string_member(body, "resource"));
  ALLOT_ASSIGN_OR_RETURN(view.namespace_name, string_member(body, "namespace"));
  ALLOT_ASSIGN_OR_RETURN(view.name, string_member(body, "name"));
  ALLOT_ASSIGN_OR_RETURN(view.user, string_member(body, "user"));
  if (body.contains("groups")) {
    if (!body["groups"].is_array()) return invalid_argument("groups must be a list", "groups");
    for (const nlohmann::json& group : body["groups"]) {
      if (!group.is_string()) return invalid_argument("groups must be strings", "groups");
      view.groups.push_back(group.get<std::string>());
    }
  }
  if (view.verb.empty() || view.resource.empty()) {
    return invalid_argument("an access review names a verb and a resource", "verb");
  }
  return view;
}

// Like kubectl auth can-i: about the caller, or (with "user", which needs
// the right to impersonate users) about someone else.
void review(const AccessControl& access, const HttpRequest& req, HttpResponse& res) {
  const std::optional<nlohmann::json> body = json_object_body(req, res);
  if (!body) return;
  const Result<AccessRequestView> request = review_request_of(*body);
  if (!request.ok()) return send_error(res, request.status());
  Principal subject = caller_of(req);
  if (!request->user.empty()) {
    const Status may = access.authorize(subject, "impersonate", "users", "", request->user);
    if (!may.ok()) return send_error(res, may);
    subject = Principal::user(request->user, request->groups);
  }
  const Decision decision = access.review(subject, request->verb, request->resource,
                                          request->namespace_name, request->name);
  send_json(res, 200,
            {{"allowed", decision.allowed},
             {"reason", decision.why},
             {"binding", decision.binding},
             {"role", decision.role},
             {"rule", decision.rule}});
}

void whoami(const HttpRequest& req, HttpResponse& res) {
  const Principal& caller = caller_of(req);
  nlohmann::json body = {{"subject", caller.subject}, {"groups", caller.groups}};
  body["team"] = caller.scope ? caller.scope->namespace_name : "";
  body["role"] = caller.scope ? caller.scope->role : "";
  send_json(res, 200, body);
}

}  // namespace

void add_access_routes(Router& http, ControlPlane& plane) {
  AccessControl& access = plane.access();
  http.post("/api/v1/sessions", [&access](const HttpRequest& req, HttpResponse& res) {
    open_session(access, req, res);
  });
  http.get("/api/v1/whoami", [](const HttpRequest& req, HttpResponse& res) { whoami(req, res); });
  http.post("/api/v1/accessreviews",
            [&access](const HttpRequest& req, HttpResponse& res) { review(access, req, res); });
  http.post(
      R"(/api/v1/tokens/([^/]+)/rotate)", [&access](const HttpRequest& req, HttpResponse& res) {
        const Result<std::string> token = access.rotate_api_token(caller_of(req), req.matches[1]);
        if (!token.ok()) return send_error(res, token.status());
        send_json(res, 200, {{"id", req.matches[1]}, {"token", *token}});
      });
}

}  // namespace allot::server
