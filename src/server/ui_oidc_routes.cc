// The web dashboard's OIDC login: the authorization code grant with PKCE
// (ui_routes.h, docs/web.md). GET /ui/oidc/login sends the browser to the
// issuer; GET /ui/oidc/callback brings it back with a code, which becomes
// the same session cookie as the local login.
#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "base/clock.h"
#include "server/http_responses.h"
#include "server/oidc_pending_logins.h"
#include "server/session_cookie.h"
#include "server/ui_routes.h"

namespace allot::server {
namespace {

constexpr std::string_view kOidcStateCookie = "allot_oidc_state";
constexpr std::string_view kOidcCallbackPath = "/ui/oidc/callback";

struct UiOidcContext {
  UiOidcContext(AccessControl& access_control, bool secure_cookie, std::string external)
      : access(access_control), secure(secure_cookie), external_url(std::move(external)) {}
  AccessControl& access;
  bool secure;
  std::string external_url;  // "" or "https://host[:port]": the browser's address of allotd
  OidcPendingLogins pending;
  SystemClock clock;
};

std::string ui_oidc_html_escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

void ui_oidc_headers(HttpResponse& res) {
  res.set_header("Cache-Control", "no-store");
  res.set_header("Content-Security-Policy",
                 "default-src 'none'; style-src 'self'; base-uri 'none'; form-action 'self'; "
                 "frame-ancestors 'none'");
  res.set_header("X-Content-Type-Options", "nosniff");
  res.set_header("X-Frame-Options", "DENY");
  res.set_header("Referrer-Policy", "no-referrer");
}

// A refused login, told to the person: a page with the reason and a way back.
void ui_oidc_refuse(HttpResponse& res, int status, const std::string& reason) {
  ui_oidc_headers(res);
  res.status = status;
  res.set_content(
      "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>allot: "
      "login refused</title></head><body><main><h1>Login refused</h1><p id=\"reason\">" +
          ui_oidc_html_escape(reason) +
          "</p><p><a href=\"/ui/\">Back to the login page</a></p></main></body></html>",
      "text/html; charset=utf-8");
}

void ui_oidc_refuse(HttpResponse& res, const Status& status) {
  ui_oidc_refuse(res, http_status_for(status.code()), status.message());
}

std::string ui_oidc_state_cookie(std::string_view value, bool secure, bool clear) {
  // Lax, not Strict: the callback is a navigation from the issuer's site.
  return std::string(kOidcStateCookie) + "=" + std::string(value) +
         "; Path=/ui/oidc; HttpOnly; SameSite=Lax; Max-Age=" + (clear ? "0" : "600") +
         (secure ? "; Secure" : "");
}

std::string ui_oidc_cookie(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    const size_t end = std::min(header.find(';'), header.size());
    std::string_view pair = header.substr(0, end);
    while (!pair.empty() && pair.front() == ' ') pair.remove_prefix(1);
    const size_t equals = pair.find('=');
    if (equals != std::string_view::npos && pair.substr(0, equals) == name) {
      return std::string(pair.substr(equals + 1));
    }
    header.remove_prefix(std::min(end + 1, header.size()));
  }
  return {};
}

// Host as the browser sent it, if it is a plain host[:port] (the issuer
// checks the redirect URI against its registration in any case).
bool ui_oidc_plain_host(std::string_view host) {
  if (host.empty() || host.size() > 255) return false;
  for (const char c : host) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '-' || c == ':' || c == '[' || c == ']';
    if (!ok) return false;
  }
  return true;
}

void ui_oidc_login(UiOidcContext& ctx, const HttpRequest& req, HttpResponse& res) {
  IdTokenAuthenticator* issuer = ctx.access.id_token_authenticator();
  if (issuer == nullptr) {
    return ui_oidc_refuse(res, 404,
                          "this allotd has no OIDC issuer (allotd --oidc-issuer URL "
                          "--oidc-client-id ID); log in with a password or a token");
  }
  // Behind a proxy (--external-url) the browser's address, else the Host it sent.
  std::string origin = ctx.external_url;
  if (origin.empty()) {
    const std::string host = req.get_header_value("Host");
    if (!ui_oidc_plain_host(host)) return ui_oidc_refuse(res, 400, "the Host header is not a host");
    origin = std::string(ctx.secure ? "https://" : "http://") + host;
  }
  const std::string redirect_uri = origin + std::string(kOidcCallbackPath);
  const Timestamp now = ctx.clock.now();
  Result<BrowserLoginStart> start = issuer->start_browser_login(redirect_uri, now);
  if (!start.ok()) return ui_oidc_refuse(res, start.status());
  ctx.pending.put(start->state,
                  {.nonce = start->nonce,
                   .code_verifier = start->code_verifier,
                   .redirect_uri = redirect_uri,
                   .team = req.get_param_value("team"),
                   .role = req.get_param_value("role")},
                  now);
  ui_oidc_headers(res);
  res.status = 303;
  res.set_header("Location", start->url);
  res.set_header("Set-Cookie", ui_oidc_state_cookie(start->state, ctx.secure, false));
}

void ui_oidc_callback(UiOidcContext& ctx, const HttpRequest& req, HttpResponse& res) {
  // The state cookie serves one try, whatever its outcome.
  res.headers.emplace("Set-Cookie", ui_oidc_state_cookie("", ctx.secure, true));
  IdTokenAuthenticator* issuer = ctx.access.id_token_authenticator();
  if (issuer == nullptr) return ui_oidc_refuse(res, 404, "this allotd has no OIDC issuer");
  if (req.has_param("error")) {
    // Issuers encode the query as a form (URLSearchParams): '+' is a space.
    std::string description = req.get_param_value("error_description");
    std::replace(description.begin(), description.end(), '+', ' ');
    return ui_oidc_refuse(
        res, 401,
        "the issuer did not log you in: " + req.get_param_value("error") + " " + description);
  }
  const std::string state = req.get_param_value("state");
  const std::string cookie = ui_oidc_cookie(req.get_header_value("Cookie"), kOidcStateCookie);
  if (state.empty() || cookie.empty() || !same_secret(state, cookie)) {
    return ui_oidc_refuse(res, 400,
                          "the login's state does not match the one this browser started "
                          "(start the login again from this browser)");
  }
  const Timestamp now = ctx.clock.now();
  std::optional<OidcPendingLogin> login = ctx.pending.take(state, now);
  if (!login) {
    return ui_oidc_refuse(res, 400,
                          "this login is unknown, was used already or took longer than 10 "
                          "minutes (start it again)");
  }
  const std::string code = req.get_param_value("code");
  if (code.empty()) return ui_oidc_refuse(res, 400, "the issuer sent no authorization code");
  Result<std::string> id_token =
      issuer->redeem_browser_code(code, login->code_verifier, login->redirect_uri, now);
  if (!id_token.ok()) return ui_oidc_refuse(res, id_token.status());
  const Result<OpenedSession> session = ctx.access.open_session({.token = "",
                                                                 .team = login->team,
                                                                 .role = login->role,
                                                                 .lifetime = std::nullopt,
                                                                 .id_token = std::move(*id_token),
                                                                 .nonce = login->nonce});
  if (!session.ok()) return ui_oidc_refuse(res, session.status());
  ui_oidc_headers(res);
  res.status = 303;
  res.set_header("Location", "/ui/#/overview");
  res.headers.emplace("Set-Cookie", session_set_cookie(session->token, ctx.secure));
}

}  // namespace

Result<std::string> normalized_external_url(std::string_view url) {
  std::string_view rest = url;
  std::string_view scheme;
  for (const std::string_view s : {std::string_view("https://"), std::string_view("http://")}) {
    if (rest.starts_with(s)) scheme = s;
  }
  if (scheme.empty()) {
    return invalid_argument("--external-url must start with https:// or http://", "--external-url");
  }
  rest.remove_prefix(scheme.size());
  if (rest.ends_with('/')) rest.remove_suffix(1);
  if (!ui_oidc_plain_host(rest)) {
    return invalid_argument(
        "--external-url is the dashboard's origin, https://HOST[:PORT], without a path: '" +
            std::string(url) + "'",
        "--external-url");
  }
  return std::string(scheme) + std::string(rest);
}

void add_ui_oidc_routes(Router& http, AccessControl& access, bool secure_cookie,
                        const std::string& external_url) {
  auto ctx = std::make_shared<UiOidcContext>(access, secure_cookie, external_url);
  http.get("/ui/oidc/login",
           [ctx](const HttpRequest& req, HttpResponse& res) { ui_oidc_login(*ctx, req, res); });
  http.get("/ui/oidc/callback",
           [ctx](const HttpRequest& req, HttpResponse& res) { ui_oidc_callback(*ctx, req, res); });
}

}  // namespace allot::server
