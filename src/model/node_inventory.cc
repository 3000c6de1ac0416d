#include "model/node_inventory.h"

#include <map>
#include <string>

namespace allot {

std::vector<Node> expand_node_pools(const Policy& policy) {
  std::vector<Node> nodes;
  // Next free rack and block number per flavor.
  std::map<std::string, std::pair<int32_t, int32_t>> next_topology;
  for (const NodePool& pool : policy.node_pools) {
    auto& [next_rack, next_block] = next_topology[pool.flavor];
    const int32_t per_rack = pool.topology.nodes_per_rack > 0 ? pool.topology.nodes_per_rack : 1;
    const int32_t per_block = pool.topology.racks_per_block > 0 ? pool.topology.racks_per_block : 1;
    for (int32_t i = 0; i < pool.count; ++i) {
      Node node;
      node.name = pool.node_names.empty() ? pool.meta.name + "-" + std::to_string(i)
                                          : pool.node_names[static_cast<size_t>(i)];
      node.pool = pool.meta.name;
      node.flavor = pool.flavor;
      node.capacity = pool.resources;
      node.rack = next_rack + i / per_rack;
      node.block = next_block + i / (per_rack * per_block);
      nodes.push_back(std::move(node));
    }
    const int32_t racks = (pool.count + per_rack - 1) / per_rack;
    next_rack += racks;
    next_block += (racks + per_block - 1) / per_block;
  }
  return nodes;
}

}  // namespace allot
