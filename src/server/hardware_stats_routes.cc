// GET /api/v1/top/hardware?range=1h|24h|7d|30d: the cluster's GPUs
// allocated, free and unhealthy over the range in buckets, with the
// utilisation measured (service/control/hardware_stats.h, docs/api.md).
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "api/rfc3339.h"
#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"

namespace allot::server {
namespace {

nlohmann::json hardware_stats_json(const HardwareStatsView& view) {
  nlohmann::json buckets = nlohmann::json::array();
  Timestamp start = view.from;
  for (const HardwareBucket& b : view.buckets) {
    buckets.push_back(
        {{"start", format_rfc3339(start)},
         {"allocated", b.allocated},
         {"free", b.free},
         {"unhealthy", b.unhealthy},
         {"utilization", b.utilization ? nlohmann::json(*b.utilization) : nlohmann::json(nullptr)},
         {"missing", b.missing}});
    start = start + view.range.bucket;
  }
  return {{"range", view.range.name},
          {"from", format_rfc3339(view.from)},
          {"to", format_rfc3339(view.to)},
          {"bucketSeconds", view.range.bucket.ms() / 1000},
          {"gpus", view.gpus},
          {"buckets", std::move(buckets)},
          {"missingData", missing_data_json(view.missing)}};
}

}  // namespace

nlohmann::json missing_data_json(const std::vector<Period>& missing) {
  nlohmann::json out = nlohmann::json::array();
  for (const Period& gap : missing) {
    out.push_back({{"from", format_rfc3339(gap.from)}, {"to", format_rfc3339(gap.to)}});
  }
  return out;
}

void add_hardware_stats_routes(Router& http, ControlPlane& plane) {
  HardwareStatsService& stats = plane.hardware_stats();
  http.get("/api/v1/top/hardware", [&stats](const HttpRequest& req, HttpResponse& res) {
    const std::string name = req.has_param("range") ? req.get_param_value("range") : "24h";
    const Result<StatsRange> range = parse_stats_range(name);
    if (!range.ok()) return send_error(res, range.status());
    const Result<HardwareStatsView> view = stats.stats(caller_of(req), *range);
    if (!view.ok()) return send_error(res, view.status());
    send_json(res, 200, hardware_stats_json(*view));
  });
}

}  // namespace allot::server
