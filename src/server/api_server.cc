#include "server/api_server.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "server/http_responses.h"
#include "server/request_framing.h"
#include "server/routes.h"
#include "server/scim_routes.h"

namespace allot::server {
namespace {

Router api_routes(ControlPlane& plane) {
  Router router;
  add_health_routes(router, plane);
  add_policy_routes(router, plane);
  add_node_routes(router, plane);
  add_report_routes(router, plane);
  add_workload_routes(router, plane);
  add_access_routes(router, plane);
  add_service_account_routes(router, plane);
  add_auth_config_routes(router, plane.access());
  add_scim_routes(router, plane);
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
         (request.method == "POST" && request.path == "/api/v1/sessions") ||
         (request.method == "GET" && request.path == "/api/v1/authconfig");
}

HttpResponse unauthenticated_answer(const Status& status) {
  HttpResponse response;
  send_error(response, status);
  response.set_header("WWW-Authenticate", "Bearer realm=\"allot\"");
  return response;
}

// Deny by default: the caller is known before any route runs.
bool authenticated(const AccessControl& access, HttpRequest& request, HttpResponse& response) {
  if (needs_no_login(request)) return true;
  Result<Principal> caller = access.authenticate(request.get_header_value("Authorization"));
  if (!caller.ok()) {
    response = unauthenticated_answer(caller.status());
    return false;
  }
  request.caller = std::move(caller).value();
  return true;
}

}  // namespace

HttpService routed_service(const Router& router, RateLimiter* limiter, const AccessControl* access,
                           const ScimService* scim, ActivityMetrics* activity) {
  HttpService service;
  service.refuse_before_body = [limiter, access,
                                scim](const HttpRequest& head) -> std::optional<HttpResponse> {
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
    if (access != nullptr && !own_token && !needs_no_login(head) &&
        !head.has_header("Authorization")) {
      return unauthenticated_answer(access->authenticate("").status());
    }
    const std::optional<FramingRefusal> refusal = framing_refusal(head);
    if (!refusal) return std::nullopt;
    HttpResponse response;
    send_error(response, refusal->http_status, refusal->code, refusal->message);
    return response;
  };
  service.handle = [&router, access, scim, activity](HttpRequest& request, HttpResponse& response) {
    const auto started = std::chrono::steady_clock::now();
    const bool own_token = scim != nullptr && is_scim_path(request.path);
    std::string_view route;
    if (access == nullptr || own_token || authenticated(*access, request, response)) {
      route = router.dispatch(request, response);
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
    : router_(api_routes(plane)),
      limiter_(limiter_of(options)),
      http_(options.http, routed_service(router_, limiter_.get(), &plane.access(), &plane.scim(),
                                         &plane.activity())) {}

}  // namespace allot::server
