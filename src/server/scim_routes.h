// SCIM 2.0 at /scim/v2 (RFC 7644; docs/scim.md): Users, Groups and the
// discovery documents, served from the control plane's ScimService.
//
// Contract: every /scim/v2 request is authorised by the SCIM bearer token
// alone (ScimService::authenticate): AccessControl's credentials do not
// reach these routes, and the SCIM token reaches nothing else (api_server.h
// leaves /scim/v2 to these routes). Without --scim-token-file every /scim/v2
// request is 404 with a SCIM error saying SCIM is not configured. Answers are
// application/scim+json; every error is an RFC 7644 section 3.12 body (401
// with WWW-Authenticate, 404, 405 for a method an endpoint does not take,
// 400/409 from the directory). POST answers 201 with the resource and
// Location; DELETE answers 204. Handlers never throw.
#pragma once

#include <optional>
#include <string_view>

#include "server/http/http_message.h"
#include "server/http/router.h"
#include "service/control/control_plane.h"

namespace allot::server {

inline constexpr std::string_view kScimPrefix = "/scim/v2";

// Whether `path` is /scim/v2 or below it.
bool is_scim_path(std::string_view path);

void add_scim_routes(Router& http, ControlPlane& plane);

// Before the body is read: the answer to a SCIM request that is refused
// whatever its body (SCIM off: 404; no Authorization header: 401).
std::optional<HttpResponse> scim_refusal_before_body(const HttpRequest& head,
                                                     const ScimService& scim);

}  // namespace allot::server
