#include "scheduler/fair_share.h"

#include <algorithm>
#include <limits>

namespace allot {

namespace {

// How much more `quota_node` would use of fr if `team` used `delta` more:
// the change propagates upward only beyond each node's guarantee.
int64_t propagated_delta(const QuotaTree& tree, TeamIndex team, int32_t quota_node, int32_t fr,
                         int64_t delta) {
  const CompiledPolicy& policy = tree.policy();
  int32_t node = policy.team(team).quota_node;
  while (node != quota_node && node != kNoParent && delta != 0) {
    const int64_t usage = tree.usage(node, fr);
    const int64_t guard = tree.guard(node, fr);
    delta = std::max<int64_t>(0, usage + delta - guard) - std::max<int64_t>(0, usage - guard);
    node = policy.parent(node);
  }
  return node == quota_node ? delta : 0;
}

// The largest borrowed ratio (x1000) of quota_node over the governed frs in
// [begin, end), at least `share`, with `extra(fr)` added to its usage of each fr.
template <typename Extra>
double largest_ratio(const QuotaTree& tree, int32_t quota_node, int32_t parent, Extra extra,
                     int32_t begin, int32_t end, double share) {
  const CompiledPolicy& policy = tree.policy();
  for (int32_t fr = begin; fr < end; ++fr) {
    if (!policy.governed(fr)) continue;
    const int64_t borrowed = std::max<int64_t>(
        0, tree.usage(quota_node, fr) + extra(fr) - tree.subtree_quota(quota_node, fr));
    if (borrowed == 0) continue;
    const int64_t lendable = tree.subtree_quota(parent, fr);
    const double ratio =
        lendable > 0 ? 1000.0 * static_cast<double>(borrowed) / static_cast<double>(lendable)
                     : std::numeric_limits<double>::max();
    share = std::max(share, ratio);
  }
  return share;
}

double weighted(const CompiledPolicy& policy, int32_t quota_node, double share) {
  const double weight = policy.quota_node_weight(quota_node);
  if (weight <= 0.0) return share > 0.0 ? std::numeric_limits<double>::infinity() : 0.0;
  return share / weight;
}

// The weighted share of quota_node with `extra(fr)` added to its usage of
// each fr of [begin, end), the others' ratios counted as `outside`.
template <typename Extra>
double weighted_share_with(const QuotaTree& tree, int32_t quota_node, Extra extra, int32_t begin,
                           int32_t end, double outside) {
  const CompiledPolicy& policy = tree.policy();
  const int32_t parent = policy.parent(quota_node);
  if (parent == kNoParent) return 0.0;
  return weighted(policy, quota_node,
                  largest_ratio(tree, quota_node, parent, extra, begin, end, outside));
}

int64_t no_extra(int32_t /*fr*/) { return 0; }

}  // namespace

double weighted_share(const QuotaTree& tree, int32_t quota_node) {
  return weighted_share_with(tree, quota_node, no_extra, 0, tree.policy().fr_count(), 0.0);
}

double weighted_share_after(const QuotaTree& tree, int32_t quota_node, TeamIndex team,
                            FlavorIndex flavor, const ResourceVector& delta) {
  // Computed without touching the tree, so its availability cache stays valid.
  return weighted_share_with(
      tree, quota_node,
      [&](int32_t fr) {
        if (fr / kResourceCount != flavor.value()) return int64_t{0};
        const auto resource = static_cast<Resource>(fr % kResourceCount);
        return propagated_delta(tree, team, quota_node, fr, delta[resource]);
      },
      0, tree.policy().fr_count(), 0.0);
}

double borrowed_ratio_outside(const QuotaTree& tree, int32_t quota_node, FlavorIndex flavor) {
  const CompiledPolicy& policy = tree.policy();
  const int32_t parent = policy.parent(quota_node);
  if (parent == kNoParent) return 0.0;
  const int32_t first = static_cast<int32_t>(flavor.value()) * kResourceCount;
  const double before = largest_ratio(tree, quota_node, parent, no_extra, 0, first, 0.0);
  return largest_ratio(tree, quota_node, parent, no_extra, first + kResourceCount,
                       policy.fr_count(), before);
}

double weighted_share_in(const QuotaTree& tree, int32_t quota_node, FlavorIndex flavor,
                         double outside) {
  const int32_t first = static_cast<int32_t>(flavor.value()) * kResourceCount;
  return weighted_share_with(tree, quota_node, no_extra, first, first + kResourceCount, outside);
}

double weighted_share_after_in(const QuotaTree& tree, int32_t quota_node, TeamIndex team,
                               FlavorIndex flavor, const ResourceVector& delta, double outside) {
  const int32_t first = static_cast<int32_t>(flavor.value()) * kResourceCount;
  return weighted_share_with(
      tree, quota_node,
      [&](int32_t fr) {
        const auto resource = static_cast<Resource>(fr - first);
        return propagated_delta(tree, team, quota_node, fr, delta[resource]);
      },
      first, first + kResourceCount, outside);
}

}  // namespace allot
