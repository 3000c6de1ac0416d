#include "service/backend_sync/inventory_health.h"

#include <map>

namespace allot {

std::vector<NodeHealthReport> health_of_inventory(const std::vector<std::string>& nodes,
                                                  const std::vector<InventoryNode>& inventory) {
  std::map<std::string, const InventoryNode*> by_name;
  for (const InventoryNode& node : inventory) by_name[node.name.str()] = &node;
  std::vector<NodeHealthReport> reports;
  reports.reserve(nodes.size());
  for (const std::string& name : nodes) {
    const auto found = by_name.find(name);
    if (found == by_name.end()) {
      reports.push_back({name, false, "not in the backend's nodes"});
      continue;
    }
    const InventoryNode& node = *found->second;
    if (!node.up) {
      reports.push_back({name, false, "down in the backend: " + node.reason});
    } else if (node.drained && !node.reason.starts_with("allot:")) {
      reports.push_back({name, false, "drained in the backend: " + node.reason});
    } else {
      reports.push_back({name, true, ""});
    }
  }
  return reports;
}

std::vector<NodeHealthReport> InventoryHealthChecker::check(const std::vector<std::string>& nodes) {
  const Result<std::vector<InventoryNode>> inventory = inventory_.list();
  if (!inventory.ok()) return {};
  inventory_list_ = *inventory;
  states_.clear();
  for (const InventoryNode& node : *inventory) {
    states_[node.name.str()] = {node.state, node.reason};
  }
  return health_of_inventory(nodes, *inventory);
}

}  // namespace allot
