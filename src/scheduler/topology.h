// Topology: which nodes sit in which rack, which racks in which block, and
// which racks and blocks belong to each flavor. Built once per policy.
//
// Contract: immutable after construction; node, rack and block numbers are
// those of the CompiledPolicy. Lists are in ascending order.
#pragma once

#include <cstdint>
#include <vector>

#include "scheduler/compiled_policy.h"

namespace allot {

class Topology {
 public:
  explicit Topology(const CompiledPolicy& policy);

  [[nodiscard]] const std::vector<NodeIndex>& nodes_of_rack(int32_t rack) const {
    return nodes_of_rack_[rack];
  }
  [[nodiscard]] const std::vector<NodeIndex>& nodes_of_block(int32_t block) const {
    return nodes_of_block_[block];
  }
  [[nodiscard]] const std::vector<NodeIndex>& nodes_of_flavor(FlavorIndex f) const {
    return nodes_of_flavor_[f.value()];
  }
  [[nodiscard]] const std::vector<int32_t>& racks_of_flavor(FlavorIndex f) const {
    return racks_of_flavor_[f.value()];
  }
  [[nodiscard]] const std::vector<int32_t>& blocks_of_flavor(FlavorIndex f) const {
    return blocks_of_flavor_[f.value()];
  }
  // Dense per-node facts, for hot loops (CompiledNode is large).
  [[nodiscard]] FlavorIndex flavor_of(NodeIndex n) const { return flavor_of_[n.value()]; }
  [[nodiscard]] int32_t rack_of(NodeIndex n) const { return rack_of_[n.value()]; }
  [[nodiscard]] int32_t block_of(NodeIndex n) const { return block_of_[n.value()]; }
  [[nodiscard]] const ResourceVector& capacity_of(NodeIndex n) const {
    return capacity_of_[n.value()];
  }
  // The most that any one rack (block) of the flavor holds when empty: a gang
  // larger than this never fits in one rack (block), so that search is skipped.
  [[nodiscard]] const ResourceVector& largest_rack(FlavorIndex f) const {
    return largest_rack_[f.value()];
  }
  [[nodiscard]] const ResourceVector& largest_block(FlavorIndex f) const {
    return largest_block_[f.value()];
  }
  // The largest GPU count of any node of the flavor.
  [[nodiscard]] int32_t max_gpus(FlavorIndex f) const { return max_gpus_[f.value()]; }

 private:
  std::vector<std::vector<NodeIndex>> nodes_of_rack_;
  std::vector<std::vector<NodeIndex>> nodes_of_block_;
  std::vector<std::vector<NodeIndex>> nodes_of_flavor_;
  std::vector<std::vector<int32_t>> racks_of_flavor_;
  std::vector<std::vector<int32_t>> blocks_of_flavor_;
  std::vector<int32_t> max_gpus_;
  std::vector<ResourceVector> largest_rack_;
  std::vector<ResourceVector> largest_block_;
  std::vector<FlavorIndex> flavor_of_;
  std::vector<int32_t> rack_of_;
  std::vector<int32_t> block_of_;
  std::vector<ResourceVector> capacity_of_;
};

}  // namespace allot
