// Pieces of the Policy values that the scheduler's unit and property tests
// build by hand: one flavor's GPU quota, and a pool of 8 nodes x 8 GPUs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "model/policy.h"

namespace allot::testing {

// `flavor`'s quota of its first resource (GPUs): nominal, borrowing and
// lending limits (none: unlimited).
inline FlavorQuota gpu_quota(const std::string& flavor, int64_t nominal,
                             std::optional<int64_t> borrow = std::nullopt,
                             std::optional<int64_t> lend = std::nullopt) {
  FlavorQuota quota;
  quota.flavor = flavor;
  quota.resources[0] = {nominal, borrow, lend};
  quota.declared[0] = true;
  return quota;
}

// The flavor `flavor` and its pool `pool_name`: 8 nodes of 8 GPUs, 96 CPUs
// and 1 TiB, in 2 blocks of 2 racks.
inline void add_gpu_pool(Policy& policy, const std::string& flavor, const std::string& pool_name) {
  ResourceFlavor resource_flavor;
  resource_flavor.meta.name = flavor;
  policy.flavors.push_back(resource_flavor);
  NodePool pool;
  pool.meta.name = pool_name;
  pool.flavor = flavor;
  pool.count = 8;
  pool.resources = ResourceVector(8, 96000, int64_t{1} << 40);
  pool.topology = {2, 2};
  policy.node_pools.push_back(pool);
}

}  // namespace allot::testing
