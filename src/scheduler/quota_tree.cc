#include "scheduler/quota_tree.h"

#include <algorithm>

namespace allot {

QuotaTree::QuotaTree(const CompiledPolicy& policy)
    : policy_(&policy), fr_count_(policy.fr_count()), usage_stride_(policy.fr_count()) {
  const size_t size = static_cast<size_t>(policy.quota_node_count()) * fr_count_;
  auto limits = std::make_shared<Limits>();
  limits->subtree.assign(size, 0);
  limits->guard.assign(size, 0);
  usage_.assign(size, 0);
  available_cache_.assign(size, 0);
  available_epoch_.assign(size, 0);
  if (fr_count_ <= 64) over_quota_cache_.assign(static_cast<size_t>(policy.quota_node_count()), {});
  for (int32_t node : policy.bottom_up_order()) {
    for (int32_t fr = 0; fr < fr_count_; ++fr) {
      const QuotaLimits& quota = policy.limits(node, fr);
      int64_t subtree = quota.nominal;
      for (int32_t child : policy.children(node)) {
        subtree += limits->subtree[limit_slot(child, fr)] - limits->guard[limit_slot(child, fr)];
      }
      limits->subtree[limit_slot(node, fr)] = subtree;
      limits->guard[limit_slot(node, fr)] =
          quota.lending_limit == kNoLimit ? 0 : std::max<int64_t>(0, subtree - quota.lending_limit);
    }
  }
  limits_ = std::move(limits);
  subtree_ = limits_->subtree.data();
  guard_ = limits_->guard.data();
}

QuotaTree QuotaTree::flavor_slice(FlavorIndex flavor) const {
  QuotaTree slice(*this, Uninitialized{});
  slice.fr_base_ = CompiledPolicy::fr_of(flavor, static_cast<Resource>(0));
  // Usage changes only where a quota governs (add_usage()), so the resources
  // after the flavor's last governed one stay 0 and are not kept.
  int32_t kept = 0;
  for (int32_t r = 0; r < kResourceCount; ++r) {
    if (policy_->governed(slice.fr_base_ + r)) kept = r + 1;
  }
  slice.usage_stride_ = kept;
  const auto nodes = static_cast<size_t>(policy_->quota_node_count());
  slice.usage_.resize(nodes * static_cast<size_t>(kept));
  for (size_t node = 0; node < nodes; ++node) {
    for (int32_t r = 0; r < kept; ++r) {
      slice.usage_[node * static_cast<size_t>(kept) + static_cast<size_t>(r)] =
          usage(static_cast<int32_t>(node), slice.fr_base_ + r);
    }
  }
  return slice;
}

void QuotaTree::change_usage(int32_t quota_node, int32_t fr, int64_t delta) {
  epoch_ = ++last_epoch_;
  int32_t node = quota_node;
  while (node != kNoParent && delta != 0) {
    int64_t& usage = usage_[usage_slot(node, fr)];
    const int64_t guard = this->guard(node, fr);
    const int64_t before = std::max<int64_t>(0, usage - guard);
    usage += delta;
    const int64_t after = std::max<int64_t>(0, usage - guard);
    delta = after - before;
    node = policy_->parent(node);
  }
}

void QuotaTree::add_usage(TeamIndex team, FlavorIndex flavor, const ResourceVector& amount) {
  const int32_t node = policy_->team(team).quota_node;
  for (Resource r : kAllResources) {
    const int32_t fr = CompiledPolicy::fr_of(flavor, r);
    if (amount[r] != 0 && policy_->governed(fr)) change_usage(node, fr, amount[r]);
  }
}

void QuotaTree::remove_usage(TeamIndex team, FlavorIndex flavor, const ResourceVector& amount) {
  const int32_t node = policy_->team(team).quota_node;
  for (Resource r : kAllResources) {
    const int32_t fr = CompiledPolicy::fr_of(flavor, r);
    if (amount[r] != 0 && policy_->governed(fr)) change_usage(node, fr, -amount[r]);
  }
}

int64_t QuotaTree::cap(int32_t quota_node, int32_t fr) const {
  const QuotaLimits& limits = policy_->limits(quota_node, fr);
  if (limits.borrowing_limit == kNoLimit) return kNoLimit;
  const int64_t guard = this->guard(quota_node, fr);
  return (subtree_quota(quota_node, fr) - guard) -
         std::max<int64_t>(0, usage(quota_node, fr) - guard) + limits.borrowing_limit;
}

int64_t QuotaTree::available(int32_t quota_node, int32_t fr) const {
  if (available_cache_.empty()) return compute_available(quota_node, fr);
  const size_t slot = limit_slot(quota_node, fr);
  if (available_epoch_[slot] == epoch_) return available_cache_[slot];
  const int64_t result = compute_available(quota_node, fr);
  available_cache_[slot] = result;
  available_epoch_[slot] = epoch_;
  return result;
}

uint64_t QuotaTree::over_quota(int32_t quota_node) const {
  OverQuota& cached = over_quota_cache_[static_cast<size_t>(quota_node)];
  if (cached.epoch == epoch_) return cached.frs;
  uint64_t frs = 0;
  const int64_t* usage = &usage_[usage_slot(quota_node, 0)];
  const int64_t* subtree = &subtree_[limit_slot(quota_node, 0)];
  for (int32_t fr = 0; fr < fr_count_; ++fr) {
    if (usage[fr] > subtree[fr]) frs |= uint64_t{1} << fr;
  }
  cached = {epoch_, frs};
  return frs;
}

int64_t QuotaTree::compute_available(int32_t quota_node, int32_t fr) const {
  const int32_t parent = policy_->parent(quota_node);
  if (parent == kNoParent) return subtree_quota(quota_node, fr) - usage(quota_node, fr);
  const int64_t own = std::max<int64_t>(0, guard(quota_node, fr) - usage(quota_node, fr));
  return own + std::min(available(parent, fr), cap(quota_node, fr));
}

bool QuotaTree::fits(TeamIndex team, FlavorIndex flavor, const ResourceVector& request) const {
  return shortfall(team, flavor, request).fr == -1;
}

QuotaShortfall QuotaTree::shortfall(TeamIndex team, FlavorIndex flavor,
                                    const ResourceVector& request) const {
  const int32_t team_node = policy_->team(team).quota_node;
  for (Resource r : kAllResources) {
    const int32_t fr = CompiledPolicy::fr_of(flavor, r);
    if (request[r] == 0 || !policy_->governed(fr)) continue;
    const int64_t avail = available(team_node, fr);
    if (request[r] <= avail) continue;
    // Walk up to the node whose limit binds: the first whose borrowing cap
    // is below what its parent could give, else the root.
    int32_t binding = team_node;
    while (policy_->parent(binding) != kNoParent &&
           cap(binding, fr) >= available(policy_->parent(binding), fr)) {
      binding = policy_->parent(binding);
    }
    return {fr, binding, request[r], std::max<int64_t>(0, avail)};
  }
  return {};
}

bool QuotaTree::would_borrow(TeamIndex team, FlavorIndex flavor,
                             const ResourceVector& request) const {
  const int32_t node = policy_->team(team).quota_node;
  for (Resource r : kAllResources) {
    const int32_t fr = CompiledPolicy::fr_of(flavor, r);
    if (request[r] == 0 || !policy_->governed(fr)) continue;
    if (usage(node, fr) + request[r] > policy_->limits(node, fr).nominal) return true;
  }
  return false;
}

ResourceVector QuotaTree::borrowed_part(TeamIndex team, FlavorIndex flavor,
                                        const ResourceVector& request) const {
  const int32_t node = policy_->team(team).quota_node;
  ResourceVector borrowed;
  for (Resource r : kAllResources) {
    const int32_t fr = CompiledPolicy::fr_of(flavor, r);
    if (request[r] == 0 || !policy_->governed(fr)) continue;
    const int64_t nominal = policy_->limits(node, fr).nominal;
    const int64_t before = usage(node, fr);
    const int64_t over_after = std::max<int64_t>(0, before + request[r] - nominal);
    const int64_t over_before = std::max<int64_t>(0, before - nominal);
    borrowed[r] = over_after - over_before;
  }
  return borrowed;
}

bool QuotaTree::borrowing(TeamIndex team, FlavorIndex flavor) const {
  const int32_t node = policy_->team(team).quota_node;
  for (Resource r : kAllResources) {
    const int32_t fr = CompiledPolicy::fr_of(flavor, r);
    if (policy_->governed(fr) && usage(node, fr) > policy_->limits(node, fr).nominal) return true;
  }
  return false;
}

}  // namespace allot
