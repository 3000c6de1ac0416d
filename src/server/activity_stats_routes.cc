// GET /api/v1/top/workloads?range=1h|24h|7d|30d[&namespace=NS][&team=T]: the
// workloads pending and running per bucket, of the namespaces the caller may
// list; GET /api/v1/top/signals?range=...: the signals firing per bucket
// (service/control/activity_stats.h, docs/api.md).
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "api/rfc3339.h"
#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"

namespace allot::server {
namespace {

nlohmann::json activity_stats_json(const ActivityStatsView& view) {
  nlohmann::json buckets = nlohmann::json::array();
  const size_t count = view.series.empty() ? 0 : view.series.front().second.size();
  Timestamp start = view.from;
  for (size_t i = 0; i < count; ++i) {
    nlohmann::json bucket = {{"start", format_rfc3339(start)}};
    for (const auto& [name, values] : view.series) bucket[name] = values[i];
    buckets.push_back(std::move(bucket));
    start = start + view.range.bucket;
  }
  return {{"range", view.range.name},      {"from", format_rfc3339(view.from)},
          {"to", format_rfc3339(view.to)}, {"bucketSeconds", view.range.bucket.ms() / 1000},
          {"buckets", std::move(buckets)}, {"missingData", missing_data_json(view.missing)}};
}

Result<StatsRange> activity_range_of(const HttpRequest& req) {
  return parse_stats_range(req.has_param("range") ? req.get_param_value("range") : "24h");
}

}  // namespace

void add_activity_stats_routes(Router& http, ControlPlane& plane) {
  ActivityStatsService& stats = plane.activity_stats();
  http.get("/api/v1/top/workloads", [&stats](const HttpRequest& req, HttpResponse& res) {
    const Result<StatsRange> range = activity_range_of(req);
    if (!range.ok()) return send_error(res, range.status());
    const WorkloadActivityQuery query{req.get_param_value("namespace"),
                                      req.get_param_value("team")};
    const Result<ActivityStatsView> view = stats.workloads(caller_of(req), *range, query);
    if (!view.ok()) return send_error(res, view.status());
    send_json(res, 200, activity_stats_json(*view));
  });
  http.get("/api/v1/top/signals", [&stats](const HttpRequest& req, HttpResponse& res) {
    const Result<StatsRange> range = activity_range_of(req);
    if (!range.ok()) return send_error(res, range.status());
    const Result<ActivityStatsView> view = stats.signals(caller_of(req), *range);
    if (!view.ok()) return send_error(res, view.status());
    send_json(res, 200, activity_stats_json(*view));
  });
}

}  // namespace allot::server
