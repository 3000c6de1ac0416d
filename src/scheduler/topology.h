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
  // The largest GPU count of any node of the flavor.
  [[nodiscard]] int32_t max_gpus(FlavorIndex f) const { return max_gpus_[f.value()]; }

 private:
  std::vector<std::vector<NodeIndex>> nodes_of_rack_;
  std::vector<std::vector<NodeIndex>> nodes_of_block_;
  std::vector<std::vector<NodeIndex>> nodes_of_flavor_;
  std::vector<std::vector<int32_t>> racks_of_flavor_;
  std::vector<std::vector<int32_t>> blocks_of_flavor_;
  std::vector<int32_t> max_gpus_;
};

}  // namespace allot
