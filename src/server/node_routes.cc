// Nodes: list, get, cordon, drain, uncordon.
#include <string>

#include "api/cluster_view_json.h"
#include "server/http_responses.h"
#include "server/request_caller.h"
#include "server/routes.h"

namespace allot::server {
namespace {

NodeAction action_of(const std::string& verb) {
  if (verb == "cordon") return NodeAction::kCordon;
  if (verb == "drain") return NodeAction::kDrain;
  return NodeAction::kUncordon;
}

void answer_node(httplib::Response& res, const Result<NodeView>& node) {
  if (!node.ok()) return send_error(res, node.status());
  send_json(res, 200, node_view_json(*node));
}

}  // namespace

void add_node_routes(httplib::Server& http, ControlPlane& plane) {
  NodeService& nodes = plane.nodes();
  http.Get("/api/v1/nodes", [&nodes](const httplib::Request& req, httplib::Response& res) {
    const Result<std::vector<NodeView>> items = nodes.list(caller_of(req));
    if (!items.ok()) return send_error(res, items.status());
    send_json(res, 200, node_list_json(*items));
  });
  http.Get("/api/v1/nodes/([^/]+)", [&nodes](const httplib::Request& req, httplib::Response& res) {
    answer_node(res, nodes.get(caller_of(req), req.matches[1]));
  });
  http.Post("/api/v1/nodes/([^/]+)/(cordon|drain|uncordon)", [&nodes](const httplib::Request& req,
                                                                      httplib::Response& res) {
    answer_node(res, nodes.act(caller_of(req), req.matches[1], action_of(req.matches[2])));
  });
}

}  // namespace allot::server
