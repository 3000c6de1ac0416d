// The login shared by the REST API (POST /api/v1/sessions) and the web UI's
// cookie login (ui_session_routes.cc): the body of a login request, read into
// the AccessControl call it names.
//
// Contract: `json_object_body` answers 400 (and returns nothing) when the
// body is over 32 KiB or not a JSON object. `open_session_from` opens a
// session from {"token"} (an API token), {"idToken"} (an OIDC ID token) or
// {"username", "password"} (the local provider), each with the optional
// "team", "role" and "ttlSeconds"; every refusal is the AccessControl's (401,
// 403) or a 400 naming the field. `session_json` is the answer of a login
// without the token (the caller adds it where it belongs). Stateless.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "server/http/http_message.h"
#include "service/control/access_control.h"

namespace allot::server {

std::optional<nlohmann::json> json_object_body(const HttpRequest& req, HttpResponse& res);
// A string member of `body` ("" when absent); an error when it is not a string.
Result<std::string> string_member(const nlohmann::json& body, const char* key);

Result<OpenedSession> open_session_from(AccessControl& access, const nlohmann::json& body);

// {"expiresAt", "subject", "groups", "team", "role"}.
nlohmann::json session_json(const identity::SessionClaims& claims);

}  // namespace allot::server
