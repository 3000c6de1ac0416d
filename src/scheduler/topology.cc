#include "scheduler/topology.h"

#include <algorithm>

namespace allot {

Topology::Topology(const CompiledPolicy& policy)
    : nodes_of_rack_(policy.rack_count()),
      nodes_of_block_(policy.block_count()),
      nodes_of_flavor_(policy.flavor_count()),
      racks_of_flavor_(policy.flavor_count()),
      blocks_of_flavor_(policy.flavor_count()),
      max_gpus_(policy.flavor_count(), 0) {
  for (int32_t i = 0; i < policy.node_count(); ++i) {
    const CompiledNode& node = policy.node(NodeIndex(i));
    const auto f = node.flavor.value();
    flavor_of_.push_back(node.flavor);
    rack_of_.push_back(node.rack);
    block_of_.push_back(node.block);
    capacity_of_.push_back(node.node.capacity);
    nodes_of_rack_[node.rack].push_back(NodeIndex(i));
    nodes_of_block_[node.block].push_back(NodeIndex(i));
    nodes_of_flavor_[f].push_back(NodeIndex(i));
    if (racks_of_flavor_[f].empty() || racks_of_flavor_[f].back() != node.rack) {
      racks_of_flavor_[f].push_back(node.rack);
    }
    if (blocks_of_flavor_[f].empty() || blocks_of_flavor_[f].back() != node.block) {
      blocks_of_flavor_[f].push_back(node.block);
    }
    max_gpus_[f] = std::max<int32_t>(max_gpus_[f], static_cast<int32_t>(node.node.capacity.gpu()));
  }
  largest_rack_.assign(policy.flavor_count(), ResourceVector());
  largest_block_.assign(policy.flavor_count(), ResourceVector());
  auto widen = [](ResourceVector& largest, const ResourceVector& candidate) {
    for (Resource r : kAllResources) largest[r] = std::max(largest[r], candidate[r]);
  };
  std::vector<ResourceVector> rack_total(policy.rack_count());
  std::vector<ResourceVector> block_total(policy.block_count());
  for (int32_t i = 0; i < policy.node_count(); ++i) {
    rack_total[rack_of_[i]] += capacity_of_[i];
    block_total[block_of_[i]] += capacity_of_[i];
  }
  for (int32_t i = 0; i < policy.node_count(); ++i) {
    widen(largest_rack_[flavor_of_[i].value()], rack_total[rack_of_[i]]);
    widen(largest_block_[flavor_of_[i].value()], block_total[block_of_[i]]);
  }
  for (auto& racks : racks_of_flavor_) {
    std::sort(racks.begin(), racks.end());
    racks.erase(std::unique(racks.begin(), racks.end()), racks.end());
  }
  for (auto& blocks : blocks_of_flavor_) {
    std::sort(blocks.begin(), blocks.end());
    blocks.erase(std::unique(blocks.begin(), blocks.end()), blocks.end());
  }
}

}  // namespace allot
