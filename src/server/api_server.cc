#include "server/api_server.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "server/audit_recording.h"
#include "server/http_responses.h"
#include "server/request_framing.h"
#include "server/routes.h"
#include "server/scim_routes.h"
#include "server/session_cookie.h"
#include "server/ui_routes.h"

namespace allot::server {
namespace {

Router api_routes(ControlPlane& plane, const ApiServerOptions& options) {
  Router router;
  // Before the static files' /ui/NAME, which would take GET /ui/session.
  // Secure cookies when the browser speaks HTTPS: to allotd, or to its proxy.
  const bool secure =
      !options.http.tls_cert_file.empty() || options.external_url.starts_with("https://");
  add_ui_session_routes(router, plane.access(), secure);
  add_ui_oidc_routes(router, plane.access(), secure, options.external_url);
  add_ui_routes(router, options.ui);
  add_health_routes(router, plane);
  add_policy_routes(router, plane);
  add_node_routes(router, plane);
  add_report_routes(router, plane);
  add_team_stats_routes(router, plane);
  add_hardware_stats_routes(router, plane);
  add_activity_stats_routes(router, plane);
  add_workload_routes(router, plane);
  add_watch_routes(router, plane.changes());
  add_contract_routes(router, plane);
  add_access_routes(router, plane);
  add_service_account_routes(router, plane);
  add_auth_config_routes(router, plane.access());
  add_scim_routes(router, plane);
  add_audit_routes(router, plane.access(), options.audit);
  add_evidence_routes(router, plane, options.audit);
  add_metrics_routes(router, plane);
  return router;
}

std::optional<HttpResponse> over_rate(RateLimiter& limiter, const HttpRequest& head) {
  if (head.path == "/healthz" || head.path == "/readyz") return std::nullopt;
  const RateDecision decision = limiter.take(head.remote_address, std::chrono::steady_clock::now());
  if (decision.allowed) return std::nullopt;
  HttpResponse response;
  send_error(response, 429, "too_many_requests",
             "too many requests from " + head.remote_address + "; retry after " +
                 std::to_string(decision.retry_after.count()) + " ms");
  const int64_t seconds = (decision.retry_after.count() + 999) / 1000;
  response.set_header("Retry-After", std::to_string(seconds));
  return response;
}

std::unique_ptr<RateLimiter> limiter_of(const ApiServerOptions& options) {
  if (options.rate_per_second <= 0) return nullptr;
  return std::make_unique<RateLimiter>(options.rate_per_second, std::max(1.0, options.rate_burst));
}

bool needs_no_login(const HttpRequest& request) {
  return request.path == "/healthz" || request.path == "/readyz" ||
         is_public_ui_request(request.method, request.path) ||
         (request.method == "POST" && request.path == "/api/v1/sessions") ||
         (request.method == "GET" && request.path == "/api/v1/authconfig");
}

HttpResponse unauthenticated_answer(const Status& status) {
  HttpResponse response;
  send_error(response, status);
  response.set_header("WWW-Authenticate", "Bearer realm=\"allot\"");
  return response;
}

bool changes_state(const HttpRequest& request) {
  return request.method != "GET" && request.method != "HEAD";
}

// The web UI's session cookie (session_cookie.h), when there is no
// Authorization header: a change needs the session's CSRF token as well.
Result<Principal> cookie_caller(const AccessControl& access, const HttpRequest& request,
                                HttpResponse& response) {
  const std::string token = session_cookie_value(request.get_header_value("Cookie"));
  Result<Principal> caller = access.authenticate("Bearer " + token);
  if (!caller.ok()) {
    response = unauthenticated_answer(caller.status());
    return caller;
  }
  if (changes_state(request) &&
      !same_secret(request.get_header_value(std::string(kCsrfHeader)), csrf_token_for(token))) {
    const Status refused(ErrorCode::kPermissionDenied,
                         "a change made with the session cookie needs the session's " +
                             std::string(kCsrfHeader) + " header (GET /ui/session)");
    send_error(response, refused);
    return refused;
  }
  return caller;
}

// Deny by default: the caller is known before any route runs.
bool authenticated(const AccessControl& access, HttpRequest& request, HttpResponse& response) {
  if (needs_no_login(request)) return true;
  if (!request.has_header("Authorization")) {
    Result<Principal> caller = cookie_caller(access, request, response);
    if (!caller.ok()) return false;
    request.caller = std::move(caller).value();
    return true;
  }
  Result<Principal> caller = access.authenticate(request.get_header_value("Authorization"));
  if (!caller.ok()) {
    response = unauthenticated_answer(caller.status());
    return false;
  }
  request.caller = std::move(caller).value();
  return true;
}

bool has_credential(const HttpRequest& head) {
  return head.has_header("Authorization") ||
         !session_cookie_value(head.get_header_value("Cookie")).empty();
}

// The answer to a request refused before its body is read, if any.
std::optional<HttpResponse> refusal_before_body(const HttpRequest& head, RateLimiter* limiter,
                                                const AccessControl* access,
                                                const ScimService* scim) {
  if (limiter != nullptr) {
    if (std::optional<HttpResponse> refused = over_rate(*limiter, head)) return refused;
  }
  // SCIM has a token of its own (scim_routes.h).
  const bool own_token = scim != nullptr && is_scim_path(head.path);
  if (own_token) {
    if (std::optional<HttpResponse> refused = scim_refusal_before_body(head, *scim)) {
      return refused;
    }
  }
  // No credential at all: refused before its body is read.
  if (access != nullptr && !own_token && !needs_no_login(head) && !has_credential(head)) {
    return unauthenticated_answer(access->authenticate("").status());
  }
  const std::optional<FramingRefusal> refusal = framing_refusal(head);
  if (!refusal) return std::nullopt;
  HttpResponse response;
  send_error(response, refusal->http_status, refusal->code, refusal->message);
  return response;
}

}  // namespace

HttpService routed_service(const Router& router, RateLimiter* limiter, const AccessControl* access,
                           const ScimService* scim, audit::AuditLog* audit,
                           ActivityMetrics* activity, audit::AuditOutbox* audit_outbox) {
  HttpService service;
  service.refuse_before_body = [limiter, access, scim,
                                audit](const HttpRequest& head) -> std::optional<HttpResponse> {
    std::optional<HttpResponse> refused = refusal_before_body(head, limiter, access, scim);
    // Denied requests (401, 403) are recorded; other refusals (429, 413, ...) are not.
    if (refused && audit != nullptr && (refused->status == 401 || refused->status == 403)) {
      finish_audited(*audit, nullptr, nullptr, access, head, *refused, audit->now());
    }
    return refused;
  };
  service.handle = [&router, access, scim, audit, activity, audit_outbox](HttpRequest& request,
                                                                          HttpResponse& response) {
    const auto started = std::chrono::steady_clock::now();
    // The router has no empty segment: the dashboard's "/ui/" is its "/ui".
    if (request.path == "/ui/") request.path = "/ui";
    const Timestamp received = audit != nullptr ? audit->now() : Timestamp();
    const bool own_token = scim != nullptr && is_scim_path(request.path);
    std::string_view route;
    std::optional<audit::RequestScope> scope;
    if (access == nullptr || own_token || authenticated(*access, request, response)) {
      if (audit != nullptr && audit_outbox != nullptr && is_audited(request, HttpResponse{})) {
        // The record as it stands before the answer: carried by the change's commit.
        scope.emplace(*audit_outbox, provisional_audit_event(request, access, received));
      }
      route = router.dispatch(request, response);
    }
    if (audit != nullptr) {
      finish_audited(*audit, audit_outbox, scope ? &*scope : nullptr, access, request, response,
                     received);
    }
    if (activity == nullptr) return;
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - started;
    activity->record_request(
        {std::string(route.empty() ? "none" : route), request.method, response.status},
        took.count());
  };
  return service;
}

ApiServer::ApiServer(ControlPlane& plane, const ApiServerOptions& options)
    : feed_(plane.changes()),
      router_(api_routes(plane, options)),
      limiter_(limiter_of(options)),
      http_(options.http, routed_service(router_, limiter_.get(), &plane.access(), &plane.scim(),
                                         options.audit, &plane.activity(), options.audit_outbox)) {}

}  // namespace allot::server
