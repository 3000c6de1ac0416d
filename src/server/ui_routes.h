// The web dashboard's routes (docs/web.md): its static files at /ui and its
// cookie session at /ui/session.
//
// Contract:
// - GET /ui/ (and /ui) is index.html, GET /ui/NAME and /ui/assets/NAME the built files
//   (UiAssets), without a login: they hold no data. index.html and the other
//   top-level files are `Cache-Control: no-cache`; /ui/assets/ (hashed names)
//   `public, max-age=31536000, immutable`. Every /ui answer has a strict
//   Content-Security-Policy (scripts, styles and connections from allotd
//   only, no inline script, no frames), X-Content-Type-Options: nosniff,
//   X-Frame-Options: DENY and Referrer-Policy: no-referrer. Without assets
//   (null), /ui answers 404 saying how to build them.
// - POST /ui/session (a JSON body only: 415 otherwise, so that no form of
//   another site logs a browser in) logs in as POST /api/v1/sessions does (session_login.h)
//   and answers 201 with the session (no token) and its `csrfToken`, the
//   token itself only in the session cookie (session_cookie.h).
//   GET /ui/session (logged in) is whoami with the `csrfToken` of the cookie.
//   DELETE /ui/session clears the cookie (with the CSRF header when a cookie
//   is sent) and revokes the session token (the cookie's, or a bearer
//   session token): it is 401 everywhere afterwards.
// - GET /ui/oidc/login[?team=T&role=R] (ui_oidc_routes.cc; with an OIDC
//   issuer) starts the authorization code grant with PKCE: a new state,
//   nonce and S256 code verifier, kept in allotd's memory for 10 minutes
//   (oidc_pending_logins.h) with the team and role asked for; the state also
//   in the cookie `allot_oidc_state` (HttpOnly, SameSite=Lax, Path=/ui/oidc,
//   10 minutes); 303 to the issuer's authorization_endpoint. GET
//   /ui/oidc/callback?code&state (on --external-url's origin when given,
//   else the request's Host, https when allotd serves TLS) needs that cookie equal to `state` and
//   the login still kept (once: a replayed state or code is refused), redeems the code with its
//   verifier at the token_endpoint, opens a session with the ID token (verified as any, plus its
//   nonce) as POST /ui/session would, sets the session cookie and answers 303 to /ui/#/overview.
//   Every refusal (the issuer's error, a wrong state, the issuer refusing the code, a wrong nonce,
//   a role not held) is a page with its reason and the status of its error (400, 401, 403, 503),
//   never a 500.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "base/result.h"
#include "server/http/router.h"
#include "server/ui_assets.h"
#include "service/control/access_control.h"

namespace allot::server {

void add_ui_routes(Router& http, std::shared_ptr<const UiAssets> assets);
void add_ui_session_routes(Router& http, AccessControl& access, bool secure_cookie);
// `external_url` ("" or an origin from normalized_external_url()): the
// redirect URI's origin, for an allotd behind a proxy that terminates TLS;
// "": the request's Host, https when allotd serves TLS.
void add_ui_oidc_routes(Router& http, AccessControl& access, bool secure_cookie,
                        const std::string& external_url);
// allotd --external-url: "https://HOST[:PORT]" (or http://), a trailing "/"
// dropped; kInvalidArgument for another scheme, a path, a query or a bad host.
Result<std::string> normalized_external_url(std::string_view url);

// Paths the routes above serve without a login (api_server.cc).
bool is_public_ui_request(std::string_view method, std::string_view path);

}  // namespace allot::server
