// The web UI's cookie session: login, whoami with the CSRF token, logout
// (ui_routes.h, session_cookie.h).
#include <string>

#include <nlohmann/json.hpp>

#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/session_cookie.h"
#include "server/session_login.h"
#include "server/ui_routes.h"

namespace allot::server {
namespace {

void log_in(AccessControl& access, bool secure, const HttpRequest& req, HttpResponse& res) {
  res.set_header("Cache-Control", "no-store");
  // JSON only: a form of another site cannot send it without a CORS
  // preflight, so no site logs a browser in as someone else.
  if (!req.get_header_value("Content-Type").starts_with("application/json")) {
    return send_error(res, 415, "unsupported_media_type",
                      "the login is a JSON object (Content-Type: application/json)");
  }
  const std::optional<nlohmann::json> body = json_object_body(req, res);
  if (!body) return;
  const Result<OpenedSession> session = open_session_from(access, *body);
  if (!session.ok()) return send_error(res, session.status());
  nlohmann::json answer = session_json(session->claims);
  answer["csrfToken"] = csrf_token_for(session->token);
  send_json(res, 201, answer);
  res.set_header("Set-Cookie", session_set_cookie(session->token, secure));
}

void who_am_i(const HttpRequest& req, HttpResponse& res) {
  res.set_header("Cache-Control", "no-store");
  const Principal& caller = caller_of(req);
  const std::string token = session_cookie_value(req.get_header_value("Cookie"));
  nlohmann::json body = {{"subject", caller.subject}, {"groups", caller.groups}};
  body["team"] = caller.scope ? caller.scope->namespace_name : "";
  body["role"] = caller.scope ? caller.scope->role : "";
  // Only a request that came with the cookie (not a bearer token) has one.
  const bool by_cookie = !req.has_header("Authorization") && !token.empty();
  body["csrfToken"] = by_cookie ? csrf_token_for(token) : "";
  send_json(res, 200, body);
}

// Needs no login (an expired session can still log out), but a cookie that is
// sent must come with its CSRF token: another site cannot log anyone out. The
// session token (the cookie's, or a bearer session token) is revoked: it
// authenticates nobody afterwards (AccessControl::revoke_session).
void log_out(AccessControl& access, bool secure, const HttpRequest& req, HttpResponse& res) {
  res.set_header("Cache-Control", "no-store");
  std::string token = session_cookie_value(req.get_header_value("Cookie"));
  if (!token.empty() &&
      !same_secret(req.get_header_value(std::string(kCsrfHeader)), csrf_token_for(token))) {
    return send_error(
        res, Status(ErrorCode::kPermissionDenied,
                    "logging out needs the session's " + std::string(kCsrfHeader) + " header"));
  }
  const std::string bearer = req.get_header_value("Authorization");
  if (token.empty() && bearer.starts_with("Bearer ")) token = bearer.substr(7);
  bool revoked = false;
  if (!token.empty()) {
    const Status status = access.revoke_session(token);
    // An expired or foreign token has nothing to end; a store failure does.
    if (!status.ok() && status.code() != ErrorCode::kUnauthenticated) {
      return send_error(res, status);
    }
    revoked = status.ok();
  }
  send_json(res, 200, {{"loggedOut", true}, {"revoked", revoked}});
  res.set_header("Set-Cookie", session_clear_cookie(secure));
}

}  // namespace

void add_ui_session_routes(Router& http, AccessControl& access, bool secure_cookie) {
  http.post("/ui/session", [&access, secure_cookie](const HttpRequest& req, HttpResponse& res) {
    log_in(access, secure_cookie, req, res);
  });
  http.get("/ui/session", [](const HttpRequest& req, HttpResponse& res) { who_am_i(req, res); });
  http.del("/ui/session", [&access, secure_cookie](const HttpRequest& req, HttpResponse& res) {
    log_out(access, secure_cookie, req, res);
  });
}

}  // namespace allot::server
