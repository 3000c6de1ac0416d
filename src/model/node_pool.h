// NodePool: `count` identical nodes of one flavor, and the topology they sit in.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/quantity.h"
#include "model/object_meta.h"

namespace allot {

struct PoolTopology {
  int32_t nodes_per_rack = 0;   // 0: every node is its own rack
  int32_t racks_per_block = 0;  // 0: every rack is its own block

  friend bool operator==(const PoolTopology&, const PoolTopology&) = default;
};

struct NodePool {
  ObjectMeta meta;
  std::string cluster;
  std::string flavor;
  int32_t count = 0;
  ResourceVector resources;  // per node
  PoolTopology topology;
  // The nodes' names, one per node (a Slurm cluster's NodeNames: docs/slurm.md);
  // empty: `<pool>-<i>`.
  std::vector<std::string> node_names;

  friend bool operator==(const NodePool&, const NodePool&) = default;
};

}  // namespace allot
