// GET /api/v1/top/stats?range=1h|24h|7d|30d: per team the admission wait
// percentiles, fair share and usage over time (service/control/team_stats.h,
// docs/api.md).
#include <string>
#include <utility>

#include <nlohmann/json.hpp>

#include "api/rfc3339.h"
#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"

namespace allot::server {
namespace {

nlohmann::json team_stats_optional(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// Per bucket the quota in force at its end; nominalGpus null: not recorded then.
nlohmann::json quota_series_json(const TeamStatsRow& row, const TeamStatsView& view) {
  nlohmann::json points = nlohmann::json::array();
  Timestamp start = view.from;
  for (const std::optional<TeamQuotaGpus>& quota : row.quota_series) {
    nlohmann::json point = {
        {"start", format_rfc3339(start)}, {"nominalGpus", nullptr}, {"ceilingGpus", nullptr}};
    if (quota) {
      point["nominalGpus"] = quota->nominal;
      if (quota->ceiling) point["ceilingGpus"] = *quota->ceiling;
    }
    points.push_back(std::move(point));
    start = start + view.range.bucket;
  }
  return points;
}

nlohmann::json team_stats_row_json(const TeamStatsRow& row, const TeamStatsView& view) {
  nlohmann::json out = {{"team", row.team},
                        {"cohort", row.cohort},
                        {"fairShare",
                         {{"weight", row.fair_share.weight},
                          {"share", team_stats_optional(row.fair_share.share)},
                          {"dominant", team_stats_optional(row.fair_share.dominant)}}},
                        {"nominalGpus", row.nominal_gpus},
                        {"ceilingGpus", row.ceiling_gpus ? nlohmann::json(*row.ceiling_gpus)
                                                         : nlohmann::json(nullptr)},
                        {"quotaSeries", quota_series_json(row, view)},
                        {"wait", nullptr},
                        {"series", nullptr}};
  if (row.wait) {
    out["wait"] = {{"admitted", row.wait->admitted},
                   {"p50", row.wait->p50},
                   {"p90", row.wait->p90},
                   {"p99", row.wait->p99}};
  }
  if (row.series) {
    nlohmann::json points = nlohmann::json::array();
    Timestamp start = view.from;
    for (const UsageBucket& b : *row.series) {
      points.push_back({{"start", format_rfc3339(start)},
                        {"gpus", b.gpus},
                        {"borrowed", b.borrowed},
                        {"lent", b.lent}});
      start = start + view.range.bucket;
    }
    out["series"] = std::move(points);
  }
  return out;
}

nlohmann::json team_stats_json(const TeamStatsView& view) {
  nlohmann::json teams = nlohmann::json::array();
  for (const TeamStatsRow& row : view.teams) teams.push_back(team_stats_row_json(row, view));
  return {{"range", view.range.name},
          {"from", format_rfc3339(view.from)},
          {"to", format_rfc3339(view.to)},
          {"bucketSeconds", view.range.bucket.ms() / 1000},
          {"fairSharing", view.fair_sharing},
          {"teams", std::move(teams)},
          {"missingData", missing_data_json(view.missing)}};
}

}  // namespace

void add_team_stats_routes(Router& http, ControlPlane& plane) {
  TeamStatsService& stats = plane.team_stats();
  http.get("/api/v1/top/stats", [&stats](const HttpRequest& req, HttpResponse& res) {
    const std::string name = req.has_param("range") ? req.get_param_value("range") : "24h";
    const Result<StatsRange> range = parse_stats_range(name);
    if (!range.ok()) return send_error(res, range.status());
    const Result<TeamStatsView> view = stats.stats(caller_of(req), *range);
    if (!view.ok()) return send_error(res, view.status());
    send_json(res, 200, team_stats_json(*view));
  });
}

}  // namespace allot::server
