#include "scheduler/fair_share.h"

#include <algorithm>
#include <limits>

namespace allot {

double weighted_share(const QuotaTree& tree, int32_t quota_node) {
  const CompiledPolicy& policy = tree.policy();
  const int32_t parent = policy.parent(quota_node);
  if (parent == kNoParent) return 0.0;
  double share = 0.0;
  for (int32_t fr = 0; fr < policy.fr_count(); ++fr) {
    if (!policy.governed(fr)) continue;
    const int64_t borrowed =
        std::max<int64_t>(0, tree.usage(quota_node, fr) - tree.subtree_quota(quota_node, fr));
    if (borrowed == 0) continue;
    const int64_t lendable = tree.subtree_quota(parent, fr);
    const double ratio =
        lendable > 0 ? 1000.0 * static_cast<double>(borrowed) / static_cast<double>(lendable)
                     : std::numeric_limits<double>::max();
    share = std::max(share, ratio);
  }
  const double weight = policy.quota_node_weight(quota_node);
  if (weight <= 0.0) return share > 0.0 ? std::numeric_limits<double>::infinity() : 0.0;
  return share / weight;
}

double weighted_share_after(QuotaTree& tree, int32_t quota_node, TeamIndex team, FlavorIndex flavor,
                            const ResourceVector& delta) {
  tree.add_usage(team, flavor, delta);
  const double share = weighted_share(tree, quota_node);
  tree.remove_usage(team, flavor, delta);
  return share;
}

}  // namespace allot
