// Node health: the executor side of DESIGN.md section 5's "node inventory and
// health". A backend answers, per node, whether it is fit to run work.
//
// Contract: check() runs one round of checks and returns one report per node
// it was asked about, in the same order. It blocks for at most the backend's
// check timeout per node. backend_states() says, where the backend owns its
// nodes (Slurm), its own state and reason of each node as of the last
// check() (for the views, beside allot's health); empty (the default)
// otherwise. inventory() is the backend's whole node list as the last
// successful check() read it, where the backend owns its nodes (a Slurm
// cluster without NodePools takes its nodes from it); nullopt (the default)
// otherwise. Thread-compatible (the service calls it from one thread).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backends/node_inventory.h"

namespace allot {

struct NodeHealthReport {
  std::string node;
  bool healthy = true;
  std::string reason;  // why it is unhealthy: the check's output or "timed out after 10s"

  friend bool operator==(const NodeHealthReport&, const NodeHealthReport&) = default;
};

// A node as the backend's own scheduler states it (Slurm: "MIXED+DRAIN").
struct BackendNodeState {
  std::string state;
  std::string reason;

  friend bool operator==(const BackendNodeState&, const BackendNodeState&) = default;
};

class NodeHealthChecker {
 public:
  virtual ~NodeHealthChecker() = default;
  virtual std::vector<NodeHealthReport> check(const std::vector<std::string>& nodes) = 0;
  // By node name (see the contract).
  [[nodiscard]] virtual std::map<std::string, BackendNodeState> backend_states() const {
    return {};
  }
  [[nodiscard]] virtual std::optional<std::vector<InventoryNode>> inventory() const {
    return std::nullopt;
  }
};

}  // namespace allot
