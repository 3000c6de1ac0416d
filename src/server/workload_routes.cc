// Workloads: create, list, get, cancel, resume, delete, scale (endpoints),
// events, logs, checkpoint reports.
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "api/rfc3339.h"
#include "api/workload_submission.h"
#include "api/workload_view_json.h"
#include "server/http_responses.h"
#include "server/query_params.h"
#include "server/request_caller.h"
#include "server/routes.h"

namespace allot::server {
namespace {

Result<WorkloadQuery> query_of(const HttpRequest& req, std::string ns) {
  WorkloadQuery query;
  query.namespace_name = std::move(ns);
  ALLOT_ASSIGN_OR_RETURN(const uint64_t limit, unsigned_param(req, "limit", 500, kMaxListLimit));
  if (limit == 0) return invalid_argument("limit must be at least 1", "limit");
  query.limit = limit;
  ALLOT_ASSIGN_OR_RETURN(query.sort, parse_workload_sort(req.get_param_value("sort")));
  if (!req.get_param_value("continue").empty()) {
    ALLOT_ASSIGN_OR_RETURN(WorkloadCursor after,
                           decode_workload_cursor(query.sort, req.get_param_value("continue")));
    query.after_uid = after.uid;
    query.after_value = std::move(after.value);
  }
  query.team = req.get_param_value("team");
  query.user = req.get_param_value("user");
  query.priority_class = req.get_param_value("priorityClass");
  const std::string phases = req.get_param_value("phase");
  size_t start = 0;
  while (start < phases.size()) {
    const size_t comma = std::min(phases.find(',', start), phases.size());
    const std::string name = phases.substr(start, comma - start);
    const std::optional<WorkloadPhase> phase = parse_workload_phase(name);
    if (!phase) {
      return invalid_argument("unknown phase '" + name +
                                  "'; phases are Pending, Admitted, Running, Succeeded, Failed, "
                                  "Preempted, Cancelled, Suspended",
                              "phase");
    }
    query.phases.push_back(*phase);
    start = comma + 1;
  }
  return query;
}

void list(const WorkloadService& workloads, const HttpRequest& req, HttpResponse& res,
          std::string ns) {
  const Result<WorkloadQuery> query = query_of(req, std::move(ns));
  if (!query.ok()) return send_error(res, query.status());
  const Result<WorkloadPage> page = workloads.list(caller_of(req), *query);
  if (!page.ok()) return send_error(res, page.status());
  send_raw_json(res, 200, encode_workload_page(*page));
}

void create(WorkloadService& workloads, const HttpRequest& req, HttpResponse& res) {
  if (!accept_manifest_body(req, res)) return;
  const WorkloadId id = workloads.allocate_id();
  const Result<Workload> workload = decode_workload_submission(req.body, req.matches[1], id);
  if (!workload.ok()) return send_error(res, workload.status());
  const Result<StoredWorkload> created = workloads.create(caller_of(req), *workload, id);
  if (!created.ok()) return send_error(res, created.status());
  send_raw_json(res, 201, **created);
}

// {"replicas": N} or {"signal": value}: nothing else (docs/api.md).
Result<ScaleRequest> scale_request_of(const std::string& text) {
  constexpr size_t kMaxScaleBody = 4096;
  if (text.size() > kMaxScaleBody) return invalid_argument("the body is larger than 4 KiB");
  const nlohmann::json body = nlohmann::json::parse(text, nullptr, false);
  if (!body.is_object()) return invalid_argument("the body must be a JSON object");
  ScaleRequest request;
  for (const auto& [key, value] : body.items()) {
    if (key == "replicas" && value.is_number_integer() &&
        std::in_range<int32_t>(value.get<int64_t>())) {
      request.replicas = static_cast<int32_t>(value.get<int64_t>());
    } else if (key == "signal" && value.is_number()) {
      request.signal = value.get<double>();
    } else if (key == "replicas" || key == "signal") {
      return invalid_argument(key + " must be a number", key);
    } else {
      return invalid_argument("unknown field '" + key + "'; expected replicas or signal", key);
    }
  }
  return request;
}

void answer_view(HttpResponse& res, const Result<WorkloadView>& view) {
  if (!view.ok()) return send_error(res, view.status());
  send_json(res, 200, workload_view_json(*view));
}

void logs(const WorkloadService& workloads, const HttpRequest& req, HttpResponse& res) {
  const Result<uint64_t> pod = unsigned_param(req, "pod", 0, 1 << 20);
  const Result<uint64_t> offset = unsigned_param(req, "offset", 0, INT64_MAX);
  if (!pod.ok()) return send_error(res, pod.status());
  if (!offset.ok()) return send_error(res, offset.status());
  const Result<LogChunk> chunk =
      workloads.log(caller_of(req), req.matches[1], req.matches[2], static_cast<int32_t>(*pod),
                    static_cast<int64_t>(*offset));
  if (!chunk.ok()) return send_error(res, chunk.status());
  res.set_header("X-Allot-Log-Offset", std::to_string(chunk->next_offset));
  res.set_header("X-Allot-Log-Path", chunk->path);
  res.status = 200;
  res.set_content(chunk->data, "text/plain; charset=utf-8");
}

// The body is empty (a checkpoint now) or {"at": "<RFC 3339 time>"}.
void report_checkpoint(WorkloadService& workloads, const HttpRequest& req, HttpResponse& res) {
  std::optional<Timestamp> at;
  if (req.body.find_first_not_of(" \t\r\n") != std::string::npos) {
    const nlohmann::json body = nlohmann::json::parse(req.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) {
      return send_error(res, invalid_argument("the body must be a JSON object", "body"));
    }
    if (body.contains("at")) {
      if (!body["at"].is_string()) {
        return send_error(res, invalid_argument("at: expected an RFC 3339 time", "at"));
      }
      const Result<Timestamp> parsed = parse_rfc3339(body["at"].get<std::string>());
      if (!parsed.ok()) return send_error(res, parsed.status().with_context("at"));
      at = *parsed;
    }
  }
  answer_view(res, workloads.report_checkpoint(caller_of(req), req.matches[1], req.matches[2], at));
}

}  // namespace

void add_workload_routes(Router& http, ControlPlane& plane) {
  WorkloadService& workloads = plane.workloads();
  http.get("/api/v1/workloads", [&workloads](const HttpRequest& req, HttpResponse& res) {
    list(workloads, req, res, "");
  });
  const std::string collection_route = "/api/v1/namespaces/([^/]+)/workloads";
  http.get(collection_route, [&workloads](const HttpRequest& req, HttpResponse& res) {
    list(workloads, req, res, req.matches[1]);
  });
  http.post(collection_route, [&workloads](const HttpRequest& req, HttpResponse& res) {
    create(workloads, req, res);
  });
  const std::string item_route = collection_route + "/([^/]+)";
  http.get(item_route, [&workloads](const HttpRequest& req, HttpResponse& res) {
    answer_view(res, workloads.get(caller_of(req), req.matches[1], req.matches[2]));
  });
  http.del(item_route, [&workloads](const HttpRequest& req, HttpResponse& res) {
    const Status deleted = workloads.remove(caller_of(req), req.matches[1], req.matches[2]);
    if (!deleted.ok()) return send_error(res, deleted);
    send_json(res, 200,
              {{"deleted", std::string(req.matches[1]) + "/" + std::string(req.matches[2])}});
  });
  http.post(item_route + "/cancel", [&workloads](const HttpRequest& req, HttpResponse& res) {
    answer_view(res, workloads.cancel(caller_of(req), req.matches[1], req.matches[2]));
  });
  http.post(item_route + "/checkpoint", [&workloads](const HttpRequest& req, HttpResponse& res) {
    report_checkpoint(workloads, req, res);
  });
  http.post(item_route + "/resume", [&workloads](const HttpRequest& req, HttpResponse& res) {
    answer_view(res, workloads.resume(caller_of(req), req.matches[1], req.matches[2]));
  });
  http.post(item_route + "/scale", [&workloads](const HttpRequest& req, HttpResponse& res) {
    const Result<ScaleRequest> request = scale_request_of(req.body);
    if (!request.ok()) return send_error(res, request.status());
    answer_view(res, workloads.scale(caller_of(req), req.matches[1], req.matches[2], *request));
  });
  http.get(item_route + "/events", [&workloads](const HttpRequest& req, HttpResponse& res) {
    const Result<std::vector<WorkloadEventView>> events =
        workloads.events(caller_of(req), req.matches[1], req.matches[2]);
    if (!events.ok()) return send_error(res, events.status());
    send_json(res, 200, workload_events_json(*events));
  });
  http.get(item_route + "/logs",
           [&workloads](const HttpRequest& req, HttpResponse& res) { logs(workloads, req, res); });
}

}  // namespace allot::server
