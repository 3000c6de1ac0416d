// ApiServer: allotd's HTTP edge (docs/api.md): the routes of the REST API on
// the event-loop HTTP server (server/http/http_server.h).
//
// Contract: bind() opens the listening socket (port 0 picks a free one) and
// returns the port; serve() answers requests until stop() (from any thread).
// Every limit and timeout of HttpServerOptions holds; compressed and
// multipart bodies are refused before they are read (request_framing.h);
// unknown routes are 404 with the JSON error body; nothing a client sends
// ends the process. With a rate limit, a client (its address) that sends
// more than `rate_per_second` requests a second, beyond a burst of
// `rate_burst`, is answered 429 `too_many_requests` with Retry-After, before
// the body is read; /healthz and /readyz are never limited.
#pragma once

#include <memory>
#include <string>

#include "base/result.h"
#include "server/http/http_server.h"
#include "server/http/router.h"
#include "server/rate_limiter.h"
#include "server/ui_assets.h"
#include "service/audit/audit_log.h"
#include "service/audit/audit_outbox.h"
#include "service/control/control_plane.h"

namespace allot::server {

struct ApiServerOptions {
  HttpServerOptions http;
  double rate_per_second = 0;  // 0: no limit
  double rate_burst = 0;       // at least 1 when limited
  // The web dashboard's files, served at /ui (ui_routes.h); null: /ui says
  // it is not installed.
  std::shared_ptr<const UiAssets> ui;
  // The address browsers reach allotd at, "https://HOST[:PORT]"
  // (normalized_external_url(), ui_routes.h), when a proxy terminates TLS in
  // front of it: the OIDC redirect URI's origin, and with https the
  // cookies are Secure. "": the request's Host, https only with tls_cert_file.
  std::string external_url;
  // The audit log (audit_recording.h); null: none. Must outlive the server.
  audit::AuditLog* audit = nullptr;
  // With `audit`: the outbox that carries a write's record in the store's
  // own commit (service/audit/audit_outbox.h; the control plane's store
  // must be its OutboxStore); null: every record is synced before its answer.
  audit::AuditOutbox* audit_outbox = nullptr;
};

class ApiServer {
 public:
  ApiServer(ControlPlane& plane, const ApiServerOptions& options);
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;
  ~ApiServer() { feed_.close(); }

  Result<int> bind(const std::string& host, int port) { return http_.bind(host, port); }
  void serve() { http_.serve(); }
  // Ends the change streams (GET /api/v1/watch), then stops serving.
  void stop() {
    feed_.close();
    http_.stop();
  }

 private:
  ChangeFeed& feed_;
  Router router_;
  std::unique_ptr<RateLimiter> limiter_;
  HttpServer http_;
};

// The service of a Router: the rate limit (when `limiter` is not null) and
// allot's framing checks before the body, then dispatch. The router and the
// limiter must outlive the service.
// With `access`, every request but the probes, the login (POST
// /api/v1/sessions, GET /api/v1/authconfig) and the web UI's public paths
// (ui_routes.h) must carry a valid bearer token, or the web UI's session
// cookie (with its CSRF header on a change: session_cookie.h): 401 otherwise
// (403 without the CSRF header), before any route runs; the principal is then in
// HttpRequest::caller. With `scim`, /scim/v2 is left to the SCIM routes and their own token
// (scim_routes.h): AccessControl does not see those requests.
// With `audit`, what audit_recording.h names is recorded, durably, before its
// answer is sent (refusals before the body included); with `audit_outbox`
// too, a request that commits a change carries its record in that commit.
// With `activity`, every request that reaches the handler (not those refused
// before their body: rate limits, no credential, framing) is counted by route
// label, method and status code with its latency (activity_metrics.h); a
// request no route matched, or refused by authentication, has route "none".
HttpService routed_service(const Router& router, RateLimiter* limiter = nullptr,
                           const AccessControl* access = nullptr, const ScimService* scim = nullptr,
                           audit::AuditLog* audit = nullptr, ActivityMetrics* activity = nullptr,
                           audit::AuditOutbox* audit_outbox = nullptr);

}  // namespace allot::server
