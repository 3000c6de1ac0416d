// nodes_of_inventory(): the nodes of a cluster whose backend owns them (a
// Slurm cluster declares no NodePool; issue 13, item 2) as allot's nodes,
// from the backend's inventory (backends/node_inventory.h).
//
// Contract: one Node per inventory node, in its order, named as the backend
// names it (Slurm's NodeName), in pool `cluster`, with the backend's capacity;
// its flavor is the node's own (Slurm's GRES type) when the policy has that
// flavor, else the policy's only flavor when it has one; a node whose flavor
// cannot be told is left out and listed in `unmatched` with why. rack and
// block come from the node's `rack`/`block` labels (0 when absent or not a
// number); healthy = up, cordoned = drained. Pure.
#pragma once

#include <string>
#include <vector>

#include "backends/node_inventory.h"
#include "model/node.h"
#include "model/policy.h"

namespace allot {

struct InventoryNodes {
  std::vector<Node> nodes;
  std::vector<std::string> unmatched;  // "node7: GPU type v100 is not a flavor of the policy"

  friend bool operator==(const InventoryNodes&, const InventoryNodes&) = default;
};

InventoryNodes nodes_of_inventory(const std::string& cluster,
                                  const std::vector<InventoryNode>& inventory,
                                  const std::vector<std::string>& flavors);

// The Slurm Clusters of `policy` that declare no NodePool: their nodes are
// the backend's (docs/slurm.md, "Nodes from Slurm").
std::vector<std::string> inventory_clusters(const Policy& policy);

// The backend's nodes as the nodes of the policy's first inventory cluster
// (one allotd runs one backend), with the policy's flavors; healthy and not
// cordoned (health and drains are the node conditions', node_health.h).
// Nothing when the policy has no inventory cluster.
InventoryNodes policy_inventory_nodes(const Policy& policy,
                                      const std::vector<InventoryNode>& inventory);

// What the scheduler places on: the NodePools' nodes (expand_node_pools())
// and those of `owned` whose pool is one of the policy's inventory clusters.
std::vector<Node> policy_nodes(const Policy& policy, const std::vector<Node>& owned);

}  // namespace allot
