// Reports: GET /api/v1/reports/usage and GET /api/v1/reports/usage/backend
// (docs/cost.md).
#include <string>
#include <string_view>

#include "api/rfc3339.h"
#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"
#include "server/usage_report_json.h"

namespace allot::server {
namespace {

Result<Timestamp> time_param(const HttpRequest& req, const char* name) {
  if (!req.has_param(name)) {
    return invalid_argument(std::string("the report needs `") + name + "` (RFC 3339)", name);
  }
  Result<Timestamp> at = parse_rfc3339(req.get_param_value(name));
  if (!at.ok()) return invalid_argument(at.status().message(), name);
  return at;
}

Result<std::vector<GroupKey>> by_param(const HttpRequest& req) {
  if (!req.has_param("by")) return std::vector<GroupKey>{GroupKey::kTeam};
  std::vector<GroupKey> keys;
  const std::string text = req.get_param_value("by");
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    Result<GroupKey> key = parse_group_key(std::string_view(text).substr(start, comma - start));
    if (!key.ok()) return invalid_argument(key.status().message(), "by");
    keys.push_back(*key);
    start = comma + 1;
  }
  return keys;
}

Result<UsageReportRequest> usage_request_of(const HttpRequest& req) {
  UsageReportRequest request;
  ALLOT_ASSIGN_OR_RETURN(request.from, time_param(req, "from"));
  ALLOT_ASSIGN_OR_RETURN(request.to, time_param(req, "to"));
  ALLOT_ASSIGN_OR_RETURN(request.by, by_param(req));
  if (req.has_param("idle")) {
    Result<IdleMode> idle = parse_idle_mode(req.get_param_value("idle"));
    if (!idle.ok()) return invalid_argument(idle.status().message(), "idle");
    request.idle = *idle;
  }
  return request;
}

nlohmann::json backend_row_json(const BackendUsageRow& row) {
  nlohmann::json out = nlohmann::json::object();
  if (!row.team.str().empty()) {
    out["team"] = row.team.str();
    out["account"] = row.team.str();
  }
  out["allotGpuSeconds"] = static_cast<double>(row.allot_gpu_ms) / 1000.0;
  out["backendGpuSeconds"] = row.backend_gpu_seconds;
  out["differenceGpuSeconds"] = row.difference_gpu_seconds();
  return out;
}

nlohmann::json backend_usage_json(const BackendUsageComparison& comparison) {
  nlohmann::json rows = nlohmann::json::array();
  for (const BackendUsageRow& row : comparison.rows) rows.push_back(backend_row_json(row));
  return {{"source", comparison.source},
          {"from", format_rfc3339(comparison.window.from)},
          {"to", format_rfc3339(comparison.window.to)},
          {"countedTo", format_rfc3339(comparison.counted_to)},
          {"hourOpen", comparison.hour_open()},
          {"rows", std::move(rows)},
          {"totals", backend_row_json(comparison.totals)}};
}

}  // namespace

void add_report_routes(Router& http, ControlPlane& plane) {
  ReportService& reports = plane.reports();
  http.get("/api/v1/reports/usage", [&reports](const HttpRequest& req, HttpResponse& res) {
    const Result<UsageReportRequest> request = usage_request_of(req);
    if (!request.ok()) return send_error(res, request.status());
    const Result<UsageReportResult> result = reports.usage(caller_of(req), *request);
    if (!result.ok()) return send_error(res, result.status());
    send_json(res, 200, usage_report_json(result->report, result->rates));
  });
  http.get("/api/v1/reports/usage/backend", [&reports](const HttpRequest& req, HttpResponse& res) {
    const Result<Timestamp> from = time_param(req, "from");
    if (!from.ok()) return send_error(res, from.status());
    const Result<Timestamp> to = time_param(req, "to");
    if (!to.ok()) return send_error(res, to.status());
    const Result<BackendUsageComparison> result = reports.backend_usage(caller_of(req), *from, *to);
    if (!result.ok()) return send_error(res, result.status());
    send_json(res, 200, backend_usage_json(*result));
  });
}

}  // namespace allot::server
