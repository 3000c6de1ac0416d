// Expands NodePools into Nodes with derived names and topology.
//
// Node i of pool P is "P-i". Racks hold `nodesPerRack` consecutive nodes and
// blocks hold `racksPerBlock` consecutive racks; numbers are unique per flavor
// across pools so that two pools never share a rack.
#pragma once

#include <vector>

#include "model/node.h"
#include "model/policy.h"

namespace allot {

std::vector<Node> expand_node_pools(const Policy& policy);

}  // namespace allot
