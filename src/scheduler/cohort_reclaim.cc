#include "scheduler/cohort_reclaim.h"

#include <algorithm>

namespace allot {

std::vector<int32_t> contested_resources(const QuotaTree& tree, TeamIndex team, FlavorIndex flavor,
                                         const ResourceVector& request) {
  const CompiledPolicy& policy = tree.policy();
  const int32_t node = policy.team(team).quota_node;
  std::vector<int32_t> short_of;
  std::vector<int32_t> asked;
  for (Resource r : kAllResources) {
    const int32_t fr = CompiledPolicy::fr_of(flavor, r);
    if (request[r] == 0 || !policy.governed(fr)) continue;
    asked.push_back(fr);
    if (request[r] > tree.available(node, fr)) short_of.push_back(fr);
  }
  return short_of.empty() ? asked : short_of;
}

bool above_quota(const QuotaTree& tree, int32_t quota_node, std::span<const int32_t> frs) {
  return std::any_of(frs.begin(), frs.end(), [&](int32_t fr) {
    return tree.usage(quota_node, fr) > tree.subtree_quota(quota_node, fr);
  });
}

CohortReclaim::CohortReclaim(const QuotaTree& tree, TeamIndex preemptor, FlavorIndex flavor,
                             const ResourceVector& request, std::vector<int32_t> contested,
                             bool kept_judgements)
    : tree_(tree),
      team_node_(tree.policy().team(preemptor).quota_node),
      contested_(std::move(contested)) {
  const CompiledPolicy& policy = tree.policy();
  if (kept_judgements && tree.over_quota_kept()) {
    // over_quota() keeps the frs below 64: a tree keeps it only when they all are.
    for (const int32_t fr : contested_) contested_frs_ |= uint64_t{1} << fr;
  }
  // What is left of the request at each level once the guarantees below it
  // (the part of their quota never lent upward) have absorbed what they can.
  std::vector<std::pair<int32_t, int64_t>> remaining;
  for (Resource r : kAllResources) {
    const int32_t fr = CompiledPolicy::fr_of(flavor, r);
    if (request[r] != 0 && policy.governed(fr)) remaining.emplace_back(fr, request[r]);
  }
  for (int32_t fr : contested_) {
    const auto resource = static_cast<Resource>(fr % kResourceCount);
    if (tree.usage(team_node_, fr) + request[resource] > tree.nominal(team_node_, fr))
      request_within_nominal_ = false;
  }
  bool advantage = false;
  for (int32_t node = team_node_; node != kNoParent; node = policy.parent(node)) {
    path_.push_back(node);
    advantage_.push_back(advantage);
    bool fits = true;
    for (auto& [fr, amount] : remaining) {
      if (tree.usage(node, fr) + amount > tree.subtree_quota(node, fr)) fits = false;
      amount = std::max<int64_t>(
          0, amount - std::max<int64_t>(0, tree.guard(node, fr) - tree.usage(node, fr)));
    }
    // Work met higher up uses quota of a subtree the preemptor fits in.
    advantage = advantage || fits;
  }
}

CohortReclaim::Relation CohortReclaim::relation_to(TeamIndex other) const {
  return relation_from(tree_.policy().team(other).quota_node);
}

CohortReclaim::Relation CohortReclaim::relation_from(int32_t quota_node) const {
  const CompiledPolicy& policy = tree_.policy();
  for (int32_t node = quota_node; node != kNoParent; node = policy.parent(node)) {
    const auto it = std::find(path_.begin(), path_.end(), node);
    if (it != path_.end()) return {node, advantage_[static_cast<size_t>(it - path_.begin())]};
  }
  return {};
}

bool CohortReclaim::still_above_quota_from(int32_t quota_node, int32_t lca) const {
  const CompiledPolicy& policy = tree_.policy();
  for (int32_t node = quota_node; node != lca && node != kNoParent; node = policy.parent(node)) {
    if (!above_quota(node)) return false;
  }
  return true;
}

int32_t CohortReclaim::child_of_lca(int32_t quota_node, int32_t lca) const {
  const CompiledPolicy& policy = tree_.policy();
  while (policy.parent(quota_node) != lca && policy.parent(quota_node) != kNoParent) {
    quota_node = policy.parent(quota_node);
  }
  return quota_node;
}

bool CohortReclaim::on_preemptor_path(int32_t quota_node) const {
  return std::find(path_.begin(), path_.end(), quota_node) != path_.end();
}

bool CohortReclaim::any_advantage() const {
  return std::find(advantage_.begin(), advantage_.end(), true) != advantage_.end();
}

bool CohortReclaim::preemptor_under_nominal() const {
  return std::all_of(contested_.begin(), contested_.end(), [&](int32_t fr) {
    return tree_.usage(team_node_, fr) < tree_.nominal(team_node_, fr);
  });
}

}  // namespace allot
