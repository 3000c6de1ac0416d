// Nodes: list, get, cordon, drain, uncordon.
#include <string>

#include "api/cluster_view_json.h"
#include "server/http_responses.h"
#include "server/query_params.h"
#include "server/request_caller.h"
#include "server/routes.h"

namespace allot::server {
namespace {

NodeAction action_of(const std::string& verb) {
  if (verb == "cordon") return NodeAction::kCordon;
  if (verb == "drain") return NodeAction::kDrain;
  return NodeAction::kUncordon;
}

Result<NodeQuery> node_query_of(const HttpRequest& req) {
  NodeQuery query;
  ALLOT_ASSIGN_OR_RETURN(query.limit, unsigned_param(req, "limit", 500, kMaxListLimit));
  if (query.limit == 0) return invalid_argument("limit must be at least 1", "limit");
  ALLOT_ASSIGN_OR_RETURN(query.after, unsigned_param(req, "continue", 0, UINT32_MAX));
  return query;
}

void answer_node(HttpResponse& res, const Result<NodeView>& node) {
  if (!node.ok()) return send_error(res, node.status());
  send_json(res, 200, node_view_json(*node));
}

}  // namespace

void add_node_routes(Router& http, ControlPlane& plane) {
  NodeService& nodes = plane.nodes();
  http.get("/api/v1/nodes", [&nodes](const HttpRequest& req, HttpResponse& res) {
    const Result<NodeQuery> query = node_query_of(req);
    if (!query.ok()) return send_error(res, query.status());
    const Result<NodePage> page = nodes.list(caller_of(req), *query);
    if (!page.ok()) return send_error(res, page.status());
    send_json(res, 200, node_page_json(*page));
  });
  http.get("/api/v1/nodes/([^/]+)", [&nodes](const HttpRequest& req, HttpResponse& res) {
    answer_node(res, nodes.get(caller_of(req), req.matches[1]));
  });
  http.post("/api/v1/nodes/([^/]+)/(cordon|drain|uncordon)", [&nodes](const HttpRequest& req,
                                                                      HttpResponse& res) {
    answer_node(res, nodes.act(caller_of(req), req.matches[1], action_of(req.matches[2])));
  });
}

}  // namespace allot::server
