// Workloads: create, list, get, cancel, delete, events, logs.
#include <charconv>
#include <string>
#include <string_view>

#include "server/http_responses.h"
#include "server/routes.h"

namespace allot::server {
namespace {

constexpr size_t kMaxListLimit = 10000;

Result<uint64_t> unsigned_param(const httplib::Request& req, const char* name, uint64_t fallback,
                                uint64_t max) {
  if (!req.has_param(name)) return fallback;
  const std::string text = req.get_param_value(name);
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value > max) {
    return invalid_argument(std::string(name) + " must be a whole number up to " +
                                std::to_string(max) + ", not '" + text + "'",
                            name);
  }
  return value;
}

Result<WorkloadQuery> query_of(const httplib::Request& req, std::string ns) {
  WorkloadQuery query;
  query.namespace_name = std::move(ns);
  ALLOT_ASSIGN_OR_RETURN(const uint64_t limit, unsigned_param(req, "limit", 500, kMaxListLimit));
  if (limit == 0) return invalid_argument("limit must be at least 1", "limit");
  query.limit = limit;
  ALLOT_ASSIGN_OR_RETURN(query.after_uid, unsigned_param(req, "continue", 0, UINT64_MAX));
  query.team = req.get_param_value("team");
  const std::string phases = req.get_param_value("phase");
  size_t start = 0;
  while (start < phases.size()) {
    const size_t comma = std::min(phases.find(',', start), phases.size());
    const std::string name = phases.substr(start, comma - start);
    const std::optional<WorkloadPhase> phase = parse_workload_phase(name);
    if (!phase) {
      return invalid_argument("unknown phase '" + name +
                                  "'; phases are Pending, Admitted, Running, Succeeded, Failed, "
                                  "Preempted, Cancelled",
                              "phase");
    }
    query.phases.push_back(*phase);
    start = comma + 1;
  }
  return query;
}

void list(ControlPlane& plane, const httplib::Request& req, httplib::Response& res,
          std::string ns) {
  const Result<WorkloadQuery> query = query_of(req, std::move(ns));
  if (!query.ok()) return send_error(res, query.status());
  const Result<WorkloadPage> page = plane.list_workloads(*query);
  if (!page.ok()) return send_error(res, page.status());
  // One allocation for the whole answer (a page of 10,000 is about 6 MB).
  constexpr std::string_view kItems = "{\"items\":";
  constexpr std::string_view kContinue = ",\"continue\":\"";
  std::string body;
  body.reserve(kItems.size() + page->items.size() + kContinue.size() + page->continue_token.size() +
               3);
  body.append(kItems).append(page->items).append(kContinue).append(page->continue_token);
  body.append("\"}");
  send_raw_json(res, 200, std::move(body));
}

template <typename Call>
void answer(httplib::Response& res, int status, Call&& call) {
  const Result<nlohmann::json> body = call();
  if (!body.ok()) return send_error(res, body.status());
  send_json(res, status, *body);
}

void logs(ControlPlane& plane, const httplib::Request& req, httplib::Response& res) {
  const Result<uint64_t> pod = unsigned_param(req, "pod", 0, 1 << 20);
  const Result<uint64_t> offset = unsigned_param(req, "offset", 0, INT64_MAX);
  if (!pod.ok()) return send_error(res, pod.status());
  if (!offset.ok()) return send_error(res, offset.status());
  const Result<LogChunk> chunk = plane.workload_log(
      req.matches[1], req.matches[2], static_cast<int32_t>(*pod), static_cast<int64_t>(*offset));
  if (!chunk.ok()) return send_error(res, chunk.status());
  res.set_header("X-Allot-Log-Offset", std::to_string(chunk->next_offset));
  res.set_header("X-Allot-Log-Path", chunk->path);
  res.status = 200;
  res.set_content(chunk->data, "text/plain; charset=utf-8");
}

}  // namespace

void add_workload_routes(httplib::Server& http, ControlPlane& plane) {
  http.Get("/api/v1/workloads", [&plane](const httplib::Request& req, httplib::Response& res) {
    list(plane, req, res, "");
  });
  const std::string kCollection = "/api/v1/namespaces/([^/]+)/workloads";
  http.Get(kCollection, [&plane](const httplib::Request& req, httplib::Response& res) {
    list(plane, req, res, req.matches[1]);
  });
  http.Post(kCollection, [&plane](const httplib::Request& req, httplib::Response& res) {
    if (!accept_manifest_body(req, res)) return;
    Result<std::string> created = plane.create_workload(req.matches[1], req.body);
    if (!created.ok()) return send_error(res, created.status());
    send_raw_json(res, 201, std::move(created).value());
  });
  const std::string kItem = kCollection + "/([^/]+)";
  http.Get(kItem, [&plane](const httplib::Request& req, httplib::Response& res) {
    answer(res, 200, [&] { return plane.get_workload(req.matches[1], req.matches[2]); });
  });
  http.Delete(kItem, [&plane](const httplib::Request& req, httplib::Response& res) {
    const Status deleted = plane.delete_workload(req.matches[1], req.matches[2]);
    if (!deleted.ok()) return send_error(res, deleted);
    send_json(res, 200,
              {{"deleted", std::string(req.matches[1]) + "/" + std::string(req.matches[2])}});
  });
  http.Post(kItem + "/cancel", [&plane](const httplib::Request& req, httplib::Response& res) {
    answer(res, 200, [&] { return plane.cancel_workload(req.matches[1], req.matches[2]); });
  });
  http.Get(kItem + "/events", [&plane](const httplib::Request& req, httplib::Response& res) {
    answer(res, 200, [&] { return plane.workload_events(req.matches[1], req.matches[2]); });
  });
  http.Get(kItem + "/logs", [&plane](const httplib::Request& req, httplib::Response& res) {
    logs(plane, req, res);
  });
}

}  // namespace allot::server
