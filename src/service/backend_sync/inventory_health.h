// InventoryHealthChecker: node health from a backend that owns its nodes
// (Slurm: issue 13, item 2), read from its NodeInventory in ONE call per
// round, as the NodeHealthChecker port the HealthMonitor polls.
//
// Contract: one report per asked node, in the asked order:
// - a node the backend does not have is unhealthy ("not in the backend");
// - a node the backend reports down (Slurm DOWN, FAIL, NOT_RESPONDING...)
//   is unhealthy, with the backend's reason;
// - a node the backend's operators drained is unhealthy ("drained in the
//   backend: <reason>"), unless allot drained it itself (a reason starting
//   with "allot:": allot's own cordon, which leaves running work alone);
// - otherwise healthy.
// backend_states(): each node's state and reason as the last successful
// round read them (Slurm's words), for the views; a failed round keeps them.
// inventory(): that round's node list (nodes read from Slurm).
// A backend that cannot be reached answers no reports at all: the monitor
// keeps what it knew (a failed poll is never "every node is gone").
// Thread-compatible.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "backends/node_health.h"
#include "backends/node_inventory.h"

namespace allot {

class InventoryHealthChecker final : public NodeHealthChecker {
 public:
  explicit InventoryHealthChecker(NodeInventory& inventory) : inventory_(inventory) {}
  std::vector<NodeHealthReport> check(const std::vector<std::string>& nodes) override;
  [[nodiscard]] std::map<std::string, BackendNodeState> backend_states() const override {
    return states_;
  }
  [[nodiscard]] std::optional<std::vector<InventoryNode>> inventory() const override {
    return inventory_list_;
  }

 private:
  NodeInventory& inventory_;
  std::map<std::string, BackendNodeState> states_;
  std::optional<std::vector<InventoryNode>> inventory_list_;  // of the last successful round
};

// The pure half: the reports of `inventory` for `nodes`.
std::vector<NodeHealthReport> health_of_inventory(const std::vector<std::string>& nodes,
                                                  const std::vector<InventoryNode>& inventory);

}  // namespace allot
