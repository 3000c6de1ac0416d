// Health, apply, policy objects and top.
#include <string>

#include "server/http_responses.h"
#include "server/routes.h"

namespace allot::server {

void add_health_routes(httplib::Server& http, const ControlPlane& plane) {
  http.Get("/healthz", [](const httplib::Request&, httplib::Response& res) {
    send_json(res, 200, {{"status", "ok"}});
  });
  http.Get("/readyz", [&plane](const httplib::Request&, httplib::Response& res) {
    if (plane.ready()) {
      send_json(res, 200, {{"status", "ready"}});
    } else {
      send_error(res, Status(ErrorCode::kUnavailable, "allotd is starting"));
    }
  });
}

namespace {

Result<bool> dry_run_of(const httplib::Request& req) {
  if (!req.has_param("dryRun")) return false;
  const std::string value = req.get_param_value("dryRun");
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  return invalid_argument("dryRun must be true or false, not '" + value + "'", "dryRun");
}

nlohmann::json changes_json(const ApplyResult& result) {
  nlohmann::json changes = nlohmann::json::array();
  for (const PolicyChange& change : result.changes) {
    std::string name = change.name;
    std::string ns;
    if (change.kind == "Workload") {
      ns = name.substr(0, name.find('/'));
      name = name.substr(name.find('/') + 1);
    }
    std::string diff;
    for (const std::string& line : change.diff) diff += (diff.empty() ? "" : "\n") + line;
    changes.push_back({{"kind", change.kind},
                       {"name", name},
                       {"namespace", ns},
                       {"action", change.action},
                       {"diff", diff}});
  }
  return {{"dryRun", result.dry_run}, {"changes", std::move(changes)}};
}

}  // namespace

void add_policy_routes(httplib::Server& http, ControlPlane& plane) {
  http.Post("/api/v1/apply", [&plane](const httplib::Request& req, httplib::Response& res) {
    if (!accept_manifest_body(req, res)) return;
    const Result<bool> dry_run = dry_run_of(req);
    if (!dry_run.ok()) return send_error(res, dry_run.status());
    const Result<ApplyResult> result = plane.apply(req.body, *dry_run);
    if (!result.ok()) return send_error(res, result.status());
    send_json(res, 200, changes_json(*result));
  });
  http.Get("/api/v1/top", [&plane](const httplib::Request&, httplib::Response& res) {
    send_json(res, 200, plane.top());
  });
  const char* kObjects =
      "/api/v1/(clusters|resourceflavors|nodepools|cohorts|teams|priorityclasses)";
  http.Get(kObjects, [&plane](const httplib::Request& req, httplib::Response& res) {
    const Result<nlohmann::json> items = plane.list_objects(req.matches[1]);
    if (!items.ok()) return send_error(res, items.status());
    send_json(res, 200, *items);
  });
  const std::string kObject = std::string(kObjects) + "/([^/]+)";
  http.Get(kObject, [&plane](const httplib::Request& req, httplib::Response& res) {
    const Result<nlohmann::json> object = plane.get_object(req.matches[1], req.matches[2]);
    if (!object.ok()) return send_error(res, object.status());
    send_json(res, 200, *object);
  });
  http.Delete(kObject, [&plane](const httplib::Request& req, httplib::Response& res) {
    const std::string kind = plural_to_kind(req.matches[1]);
    const Status deleted = plane.delete_object(kind, req.matches[2]);
    if (!deleted.ok()) return send_error(res, deleted);
    send_json(res, 200, {{"deleted", kind + "/" + std::string(req.matches[2])}});
  });
}

void add_node_routes(httplib::Server& http, ControlPlane& plane) {
  http.Get("/api/v1/nodes", [&plane](const httplib::Request&, httplib::Response& res) {
    send_json(res, 200, plane.list_nodes());
  });
  http.Get("/api/v1/nodes/([^/]+)", [&plane](const httplib::Request& req, httplib::Response& res) {
    const Result<nlohmann::json> node = plane.get_node(req.matches[1]);
    if (!node.ok()) return send_error(res, node.status());
    send_json(res, 200, *node);
  });
  http.Post("/api/v1/nodes/([^/]+)/(cordon|drain|uncordon)",
            [&plane](const httplib::Request& req, httplib::Response& res) {
              const std::string verb = req.matches[2];
              const NodeAction action = verb == "cordon"  ? NodeAction::kCordon
                                        : verb == "drain" ? NodeAction::kDrain
                                                          : NodeAction::kUncordon;
              const Result<nlohmann::json> node = plane.node_action(req.matches[1], action);
              if (!node.ok()) return send_error(res, node.status());
              send_json(res, 200, *node);
            });
}

}  // namespace allot::server
