// Node: one machine of a NodePool, with its place in the topology and its health.
//
// Nodes are derived from NodePools ("h100-pool-0" .. "h100-pool-15"); racks and
// blocks are numbered per pool ("h100-pool/rack-3").
#pragma once

#include <cstdint>
#include <string>

#include "base/quantity.h"

namespace allot {

struct Node {
  std::string name;
  std::string pool;
  std::string flavor;
  ResourceVector capacity;
  int32_t rack = 0;   // global rack number within the pool's flavor
  int32_t block = 0;  // global block number within the pool's flavor
  bool healthy = true;
  bool cordoned = false;

  friend bool operator==(const Node&, const Node&) = default;
};

}  // namespace allot
