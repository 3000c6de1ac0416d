// Health, apply, policy objects (the RBAC kinds included) and top.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/cluster_view_json.h"
#include "api/manifest_parser.h"
#include "api/resource_kinds.h"
#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"

namespace allot::server {

void add_health_routes(Router& http, const ControlPlane& plane) {
  http.get("/healthz", [](const HttpRequest&, HttpResponse& res) {
    send_json(res, 200, {{"status", "ok"}});
  });
  http.get("/readyz", [&plane](const HttpRequest&, HttpResponse& res) {
    if (plane.ready()) {
      send_json(res, 200, {{"status", "ready"}});
    } else {
      send_error(res, Status(ErrorCode::kUnavailable, "allotd is starting"));
    }
  });
}

namespace {

Result<bool> dry_run_of(const HttpRequest& req) {
  if (!req.has_param("dryRun")) return false;
  const std::string value = req.get_param_value("dryRun");
  if (value == "true" || value == "1") return true;
  if (value == "false" || value == "0") return false;
  return invalid_argument("dryRun must be true or false, not '" + value + "'", "dryRun");
}

// The manifest kind of a policy path segment ("teams" -> "Team").
Result<std::string> policy_kind_of(const std::string& plural) {
  const KindInfo* info = kind_by_plural(plural);
  if (info == nullptr || info->kind == ResourceKind::kWorkload ||
      info->kind == ResourceKind::kNode) {
    return not_found("unknown resource '" + plural + "'");
  }
  return std::string(info->manifest_kind);
}

void send_list(PolicyService& policies, const HttpRequest& req, HttpResponse& res,
               const std::string& plural, const std::string& namespace_name) {
  const Result<std::string> kind = policy_kind_of(plural);
  if (!kind.ok()) return send_error(res, kind.status());
  const Result<std::vector<PolicyObjectView>> items =
      policies.list_objects(caller_of(req), *kind, namespace_name);
  if (!items.ok()) return send_error(res, items.status());
  const Result<nlohmann::json> body = policy_list_json(*items);
  if (!body.ok()) return send_error(res, body.status());
  send_json(res, 200, *body);
}

void send_object(PolicyService& policies, const HttpRequest& req, HttpResponse& res,
                 const std::string& plural, const std::string& name,
                 const std::string& namespace_name) {
  const Result<std::string> kind = policy_kind_of(plural);
  if (!kind.ok()) return send_error(res, kind.status());
  const Result<PolicyObjectView> object =
      policies.get_object(caller_of(req), *kind, name, namespace_name);
  if (!object.ok()) return send_error(res, object.status());
  const Result<nlohmann::json> body = policy_object_json(*object);
  if (!body.ok()) return send_error(res, body.status());
  send_json(res, 200, *body);
}

void delete_object(PolicyService& policies, const HttpRequest& req, HttpResponse& res,
                   const std::string& plural, const std::string& name,
                   const std::string& namespace_name) {
  const Result<std::string> kind = policy_kind_of(plural);
  if (!kind.ok()) return send_error(res, kind.status());
  const Status deleted = policies.delete_object(caller_of(req), *kind, name, namespace_name);
  if (!deleted.ok()) return send_error(res, deleted);
  const std::string where = namespace_name.empty() ? name : namespace_name + "/" + name;
  send_json(res, 200, {{"deleted", *kind + "/" + where}});
}

// Roles and RoleBindings: of one namespace, or (listing) of every namespace
// the caller may list them in.
void add_namespaced_rbac_routes(Router& http, PolicyService& policies) {
  http.get("/api/v1/(roles|rolebindings)", [&policies](const HttpRequest& req, HttpResponse& res) {
    send_list(policies, req, res, req.matches[1], "");
  });
  const std::string collection_route = "/api/v1/namespaces/([^/]+)/(roles|rolebindings)";
  http.get(collection_route, [&policies](const HttpRequest& req, HttpResponse& res) {
    send_list(policies, req, res, req.matches[2], req.matches[1]);
  });
  const std::string item_route = collection_route + "/([^/]+)";
  http.get(item_route, [&policies](const HttpRequest& req, HttpResponse& res) {
    send_object(policies, req, res, req.matches[2], req.matches[3], req.matches[1]);
  });
  http.del(item_route, [&policies](const HttpRequest& req, HttpResponse& res) {
    delete_object(policies, req, res, req.matches[2], req.matches[3], req.matches[1]);
  });
}

void apply(PolicyService& policies, const HttpRequest& req, HttpResponse& res) {
  if (!accept_manifest_body(req, res)) return;
  const Result<bool> dry_run = dry_run_of(req);
  if (!dry_run.ok()) return send_error(res, dry_run.status());
  const Result<ParsedManifests> parsed = parse_manifests_with_documents(req.body);
  if (!parsed.ok()) return send_error(res, parsed.status());
  const Result<ApplyResult> result = policies.apply(caller_of(req), *parsed, *dry_run);
  if (!result.ok()) return send_error(res, result.status());
  send_json(res, 200, apply_result_json(*result));
}

}  // namespace

void add_policy_routes(Router& http, ControlPlane& plane) {
  PolicyService& policies = plane.policies();
  http.post("/api/v1/apply",
            [&policies](const HttpRequest& req, HttpResponse& res) { apply(policies, req, res); });
  http.get("/api/v1/top", [&policies](const HttpRequest& req, HttpResponse& res) {
    const Result<TopView> top = policies.top(caller_of(req));
    if (!top.ok()) return send_error(res, top.status());
    send_json(res, 200, top_json(*top));
  });
  // The signal's fired and resolved events, oldest first (docs/metrics.md).
  http.get("/api/v1/signals/([^/]+)/history", [&policies](const HttpRequest& req,
                                                          HttpResponse& res) {
    const std::string name = req.matches[1];
    const Result<std::vector<std::string>> events = policies.signal_history(caller_of(req), name);
    if (!events.ok()) return send_error(res, events.status());
    nlohmann::json items = nlohmann::json::array();
    for (const std::string& event : *events) {
      items.push_back(nlohmann::json::parse(event, nullptr, false));
    }
    send_json(res, 200, {{"signal", name}, {"items", std::move(items)}});
  });
  const char* objects_route =
      "/api/v1/(clusters|resourceflavors|nodepools|cohorts|teams|priorityclasses|budgets|signals|"
      "organizations|contracts|policyexceptions|clusterroles|clusterrolebindings)";
  http.get(objects_route, [&policies](const HttpRequest& req, HttpResponse& res) {
    send_list(policies, req, res, req.matches[1], "");
  });
  const std::string object_route = std::string(objects_route) + "/([^/]+)";
  http.get(object_route, [&policies](const HttpRequest& req, HttpResponse& res) {
    send_object(policies, req, res, req.matches[1], req.matches[2], "");
  });
  http.del(object_route, [&policies](const HttpRequest& req, HttpResponse& res) {
    delete_object(policies, req, res, req.matches[1], req.matches[2], "");
  });
  add_namespaced_rbac_routes(http, policies);
}

}  // namespace allot::server
