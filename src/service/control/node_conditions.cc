#include "service/control/node_conditions.h"

#include <nlohmann/json.hpp>

namespace allot {

void put_node_condition(const ServerState& state, const std::string& name, WriteBatch& batch) {
  const NodeState& node = state.nodes.at(name);
  nlohmann::json history = nlohmann::json::array();
  for (const NodeHealthChange& change : node.health_history) {
    history.push_back(
        {{"atMs", change.at.ms()}, {"healthy", change.healthy}, {"reason", change.reason}});
  }
  const nlohmann::json json = {{"healthy", node.healthy},
                               {"cordoned", node.cordoned},
                               {"autoCordoned", node.auto_cordoned},
                               {"reason", node.reason},
                               {"healthHistory", std::move(history)}};
  batch.put_objects.push_back({std::string(kNodeConditionKind), name, json.dump()});
}

Result<NodeState> decode_node_condition(const std::string& text) {
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded() || !json.is_object()) {
    return invalid_argument("stored node condition is not a JSON object");
  }
  NodeState node;
  node.healthy = json.value("healthy", true);
  node.cordoned = json.value("cordoned", false);
  node.auto_cordoned = json.value("autoCordoned", false);
  node.reason = json.value("reason", "");
  // Conditions stored before the history was kept have none.
  const auto history = json.find("healthHistory");
  if (history != json.end() && history->is_array()) {
    for (const nlohmann::json& change : *history) {
      if (!change.is_object())
        return invalid_argument("stored node health change is not an object");
      node.health_history.push_back({Timestamp::from_millis(change.value("atMs", int64_t{0})),
                                     change.value("healthy", true), change.value("reason", "")});
    }
  }
  return node;
}

std::vector<NodeHealthReport> apply_health_reports(const std::vector<NodeHealthReport>& reports,
                                                   Timestamp now, ServerState& state,
                                                   WriteBatch& batch) {
  std::vector<NodeHealthReport> changed;
  for (const NodeHealthReport& report : reports) {
    NodeState& node = state.nodes[report.node];
    node.last_heartbeat = now;
    if (node.healthy == report.healthy) continue;
    node.healthy = report.healthy;
    node.health_history.push_back({now, report.healthy, report.healthy ? "" : report.reason});
    if (node.health_history.size() > kNodeHealthHistoryLength) {
      node.health_history.erase(node.health_history.begin());
    }
    if (!report.healthy) {
      node.reason = report.reason;
      if (!node.cordoned) node.auto_cordoned = true;
      node.cordoned = true;
    } else {
      node.reason.clear();
      if (node.auto_cordoned) node.cordoned = false;
      node.auto_cordoned = false;
    }
    put_node_condition(state, report.node, batch);
    changed.push_back(report);
  }
  return changed;
}

}  // namespace allot
