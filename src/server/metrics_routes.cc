// GET /metrics: the Prometheus text exposition of MetricsService's snapshot
// (docs/metrics.md). A bearer token with `get` on `metrics` is needed, like
// every other route; a team-scoped one sees its teams' series only.
#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"
#include "service/metrics/prometheus_text.h"

namespace allot::server {

void add_metrics_routes(Router& http, ControlPlane& plane) {
  MetricsService& metrics = plane.metrics();
  http.get("/metrics", [&metrics](const HttpRequest& req, HttpResponse& res) {
    const Result<MetricsSnapshot> snapshot = metrics.snapshot(caller_of(req));
    if (!snapshot.ok()) return send_error(res, snapshot.status());
    res.status = 200;
    res.set_content(render_prometheus(*snapshot), kPrometheusContentType);
  });
}

}  // namespace allot::server
