#include "scheduler/team_ceiling.h"

#include "scheduler/quota_tree.h"

namespace allot {

std::vector<ResourceCeiling> team_ceiling(const CompiledPolicy& policy, TeamIndex team) {
  const QuotaTree empty(policy);  // nothing admitted anywhere
  std::vector<ResourceCeiling> ceiling;
  for (int32_t f = 0; f < policy.flavor_count(); ++f) {
    for (int32_t r = 0; r < kResourceCount; ++r) {
      const FlavorIndex flavor(f);
      const auto resource = static_cast<Resource>(r);
      const int32_t fr = CompiledPolicy::fr_of(flavor, resource);
      if (!policy.governed(fr)) continue;
      // A team's quota node is its index (compiled_policy.h).
      const auto quota_node = static_cast<int32_t>(team.value());
      ceiling.push_back({flavor, resource, empty.available(quota_node, fr)});
    }
  }
  return ceiling;
}

}  // namespace allot
