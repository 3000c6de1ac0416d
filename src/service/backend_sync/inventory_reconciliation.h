// reconcile_inventory(): what a backend's node inventory
// (backends/node_inventory.h) means for the nodes of the policy.
//
// Contract: one verdict per node of the policy, in its compiled order:
// - a node the backend does not have is unhealthy ("not in the backend");
// - a node the backend reports down is unhealthy, with the backend's reason;
// - a node the backend reports smaller than the policy says, in any resource,
//   is unhealthy (placing the policy's pods there would overcommit it), and
//   the reason names the resource and both amounts;
// - a node the backend's operators drained is drained (not schedulable; what
//   runs there may finish), with the backend's reason.
// Backend nodes the policy does not name are listed in `unknown`, in name
// order, for an operator to see; they are never scheduled. Pure.
#pragma once

#include <string>
#include <vector>

#include "backends/node_inventory.h"
#include "scheduler/compiled_policy.h"

namespace allot {

struct InventoryVerdict {
  std::string node;  // the policy's name for it
  bool healthy = true;
  bool drained = false;
  std::string reason;  // empty when healthy and not drained

  friend bool operator==(const InventoryVerdict&, const InventoryVerdict&) = default;
};

struct InventoryReconciliation {
  std::vector<InventoryVerdict> nodes;
  std::vector<std::string> unknown;
};

InventoryReconciliation reconcile_inventory(const CompiledPolicy& policy,
                                            const std::vector<InventoryNode>& inventory);

}  // namespace allot
