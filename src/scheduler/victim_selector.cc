#include "scheduler/victim_selector.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "scheduler/fair_share.h"

namespace allot {
namespace {

constexpr double kUnknownShare = std::numeric_limits<double>::quiet_NaN();

bool any_node_in(const AdmittedWorkload& w, const std::vector<NodeIndex>& nodes) {
  for (const PodSetAssignment& set : w.assignment) {
    for (const PodPlacement& pod : set.pods) {
      if (std::binary_search(nodes.begin(), nodes.end(), pod.node)) return true;
    }
  }
  return false;
}

}  // namespace

VictimSelector::VictimSelector(QuotaTree& quota, CapacityIndex& capacity,
                               const std::vector<AdmittedWorkload>& admitted,
                               const std::vector<bool>& unavailable, Timestamp now)
    : quota_(quota),
      capacity_(capacity),
      admitted_(admitted),
      unavailable_(unavailable),
      now_(now) {}

// What was known about a team's usage no longer holds once its work moves.
void VictimSelector::forget_shares_of(TeamIndex team) {
  if (!team_share_now_.empty()) team_share_now_[team.value()] = kUnknownShare;
  if (!borrowing_cache_.empty()) borrowing_cache_[team.value()] = -1;
  if (team == preemptor_team_) preemptor_share_ = kUnknownShare;
}

const ResourceVector& VictimSelector::usage_of(uint32_t index) {
  if (usage_.empty()) {
    usage_.reserve(admitted_.size());
    for (const AdmittedWorkload& w : admitted_) usage_.push_back(w.usage());
  }
  return usage_[index];
}

int32_t VictimSelector::root_of(int32_t quota_node) const {
  const CompiledPolicy& policy = quota_.policy();
  while (policy.parent(quota_node) != kNoParent) quota_node = policy.parent(quota_node);
  return quota_node;
}

const std::vector<uint32_t>& VictimSelector::group(int32_t root, FlavorIndex flavor) {
  const auto key = [](int32_t r, FlavorIndex f) {
    return (static_cast<uint64_t>(r) << 16) | f.value();
  };
  if (!grouped_) {
    grouped_ = true;
    for (uint32_t i = 0; i < admitted_.size(); ++i) {
      const AdmittedWorkload& w = admitted_[i];
      groups_[key(root_of(quota_.policy().team(w.team).quota_node), w.flavor)].push_back(i);
    }
  }
  auto it = groups_.find(key(root, flavor));
  if (it == groups_.end()) return empty_group_;
  // Sorted by preference on first use; collect() only filters and moves
  // own-team work last.
  if (sorted_groups_.insert(it->first).second) {
    std::sort(it->second.begin(), it->second.end(), [&](uint32_t a, uint32_t b) {
      const AdmittedWorkload& x = admitted_[a];
      const AdmittedWorkload& y = admitted_[b];
      return std::make_tuple(x.priority, -x.admitted_at.ms(), (now_ - x.last_checkpoint).ms(),
                             x.id) < std::make_tuple(y.priority, -y.admitted_at.ms(),
                                                     (now_ - y.last_checkpoint).ms(), y.id);
    });
  }
  return it->second;
}

std::vector<VictimSelector::Candidate> VictimSelector::collect(const PendingWorkload& preemptor,
                                                               FlavorIndex flavor, bool* too_young,
                                                               bool* any_allowed) {
  const CompiledPolicy& policy = quota_.policy();
  const TeamPreemption& rules = policy.team(preemptor.team).preemption;
  const bool cross_team_allowed = rules.reclaim_within_cohort != ReclaimPolicy::kNever ||
                                  rules.borrow_within_cohort != BorrowWithinCohortPolicy::kNever;
  *any_allowed = cross_team_allowed || rules.within_team != WithinTeamPolicy::kNever;
  const int32_t preemptor_root = root_of(policy.team(preemptor.team).quota_node);
  std::vector<Candidate> out;
  if (!*any_allowed) return out;
  // Only teams that borrow now can lose work to another team (removing
  // victims never makes a team borrow), so the others are skipped early.
  borrowing_cache_.assign(policy.team_count(), -1);
  auto team_borrows = [&](TeamIndex team) {
    int8_t& cached = borrowing_cache_[team.value()];
    if (cached < 0) cached = quota_.borrowing(team, flavor) ? 1 : 0;
    return cached == 1;
  };
  for (uint32_t i : group(preemptor_root, flavor)) {
    const AdmittedWorkload& w = admitted_[i];
    if (unavailable_[i] || w.id == preemptor.preempted_by) continue;
    const bool same_team = w.team == preemptor.team;
    if (same_team) {
      if (rules.within_team == WithinTeamPolicy::kNever || w.priority >= preemptor.priority)
        continue;
    } else {
      if (!cross_team_allowed || !team_borrows(w.team)) continue;
    }
    if (now_ < w.admitted_at + policy.priority_class(w.priority_class).min_runtime) {
      *too_young = true;
      continue;
    }
    out.push_back({i, same_team});
  }
  std::stable_partition(out.begin(), out.end(), [](const Candidate& c) { return !c.same_team; });
  return out;
}

PreemptionReason VictimSelector::reason_for(const PendingWorkload& preemptor, FlavorIndex flavor,
                                            const ResourceVector& total, const Candidate& c) const {
  if (c.same_team) return PreemptionReason::kWithinTeam;
  if (quota_.policy().fair_sharing()) return PreemptionReason::kFairShare;
  return quota_.would_borrow(preemptor.team, flavor, total)
             ? PreemptionReason::kBorrowWithinCohort
             : PreemptionReason::kReclaimWithinCohort;
}

bool VictimSelector::still_eligible(const PendingWorkload& preemptor, FlavorIndex flavor,
                                    const ResourceVector& total, const Candidate& c) {
  if (c.same_team) return true;
  const AdmittedWorkload& victim = admitted_[c.index];
  // Only capacity that the victim's team borrows may be taken back.
  int8_t& borrows = borrowing_cache_[victim.team.value()];
  if (borrows < 0) borrows = quota_.borrowing(victim.team, flavor) ? 1 : 0;
  if (borrows == 0) return false;
  const CompiledPolicy& policy = quota_.policy();
  const TeamPreemption& rules = policy.team(preemptor.team).preemption;
  const bool lower = victim.priority < preemptor.priority;
  if (policy.fair_sharing()) {
    if (rules.reclaim_within_cohort == ReclaimPolicy::kNever) return false;
    if (rules.reclaim_within_cohort == ReclaimPolicy::kLowerPriority && !lower) return false;
    // The preemptor's share after admission must stay at or below the
    // victim's share after removal, so two teams cannot take turns.
    if (std::isnan(preemptor_share_)) {
      preemptor_share_ = weighted_share_after(quota_, policy.team(preemptor.team).quota_node,
                                              preemptor.team, flavor, total);
    }
    // Removing work only lowers a team's share: its share now bounds it.
    double& share_now = team_share_now_[victim.team.value()];
    if (std::isnan(share_now))
      share_now = weighted_share(quota_, policy.team(victim.team).quota_node);
    const double victim_share =
        preemptor_share_ > share_now
            ? share_now
            : weighted_share_after(quota_, policy.team(victim.team).quota_node, victim.team, flavor,
                                   usage_of(c.index) * -1);
    if (preemptor_share_ > victim_share) share_refused_ = true;
    return preemptor_share_ <= victim_share;
  }
  if (!quota_.would_borrow(preemptor.team, flavor, total)) {
    return rules.reclaim_within_cohort == ReclaimPolicy::kAny ||
           (rules.reclaim_within_cohort == ReclaimPolicy::kLowerPriority && lower);
  }
  return rules.borrow_within_cohort == BorrowWithinCohortPolicy::kLowerPriority && lower &&
         (!rules.borrow_max_priority_threshold.has_value() ||
          victim.priority <= *rules.borrow_max_priority_threshold);
}

bool VictimSelector::fits(const PendingWorkload& preemptor, FlavorIndex flavor,
                          const ResourceVector& total, std::span<const int32_t> counts,
                          std::vector<NodeIndex>* used_nodes) {
  if (!quota_.fits(preemptor.team, flavor, total)) return false;
  if (!total.fits_in(capacity_.flavor_free(flavor))) return false;
  GangPlacer placer(capacity_);
  auto placed = placer.place(
      {preemptor.id, flavor, preemptor.pod_sets, counts, Timestamp::infinite_future()});
  if (!placed) return false;
  used_nodes->clear();
  for (const auto& set : *placed) {
    for (const auto& pod : set.pods) used_nodes->push_back(pod.node);
  }
  std::sort(used_nodes->begin(), used_nodes->end());
  return true;
}

void VictimSelector::remove(uint32_t index) {
  const AdmittedWorkload& w = admitted_[index];
  forget_shares_of(w.team);
  quota_.remove_usage(w.team, w.flavor, usage_of(index));
  for (size_t s = 0; s < w.assignment.size(); ++s) {
    for (const PodPlacement& pod : w.assignment[s].pods) {
      capacity_.release(pod.node, w.pod_sets[s].per_pod, pod.gpu_mask);
    }
  }
}

void VictimSelector::restore(uint32_t index) {
  const AdmittedWorkload& w = admitted_[index];
  forget_shares_of(w.team);
  quota_.add_usage(w.team, w.flavor, usage_of(index));
  for (size_t s = 0; s < w.assignment.size(); ++s) {
    for (const PodPlacement& pod : w.assignment[s].pods) {
      capacity_.hold(pod.node, w.pod_sets[s].per_pod, pod.gpu_mask);
    }
  }
}

VictimChoice VictimSelector::find(const PendingWorkload& preemptor, FlavorIndex flavor,
                                  const ResourceVector& total, std::span<const int32_t> counts) {
  bool too_young = false;
  bool any_allowed = false;
  const std::vector<Candidate> candidates = collect(preemptor, flavor, &too_young, &any_allowed);
  VictimChoice choice;
  if (!any_allowed) {
    choice.verdict = PreemptionVerdict::kNotAllowed;
    return choice;
  }
  share_refused_ = false;
  preemptor_team_ = preemptor.team;
  preemptor_share_ = kUnknownShare;
  team_share_now_.assign(quota_.policy().team_count(), kUnknownShare);
  std::vector<Candidate> removed;
  std::vector<NodeIndex> used_nodes;
  bool fitted = false;
  size_t next_check = 1;  // placement checks at 1, 2, 4, ... removals keep search cheap
  for (const Candidate& c : candidates) {
    if (!still_eligible(preemptor, flavor, total, c)) continue;
    const PreemptionReason reason = reason_for(preemptor, flavor, total, c);
    remove(c.index);
    removed.push_back(c);
    choice.victims.emplace_back(c.index, reason);
    if (removed.size() >= next_check || quota_.fits(preemptor.team, flavor, total)) {
      if (fits(preemptor, flavor, total, counts, &used_nodes)) {
        fitted = true;
        break;
      }
      if (removed.size() >= next_check) next_check *= 2;
    }
  }
  if (!fitted) {
    for (auto it = removed.rbegin(); it != removed.rend(); ++it) restore(it->index);
    choice.victims.clear();
    choice.verdict = candidates.empty() ? (too_young ? PreemptionVerdict::kCandidatesTooYoung
                                                     : PreemptionVerdict::kNoCandidates)
                                        : (share_refused_ ? PreemptionVerdict::kFairShareRefused
                                                          : PreemptionVerdict::kInsufficient);
    return choice;
  }
  // Put back every victim that is not needed, latest first.
  for (size_t i = removed.size(); i-- > 0;) {
    const uint32_t index = removed[i].index;
    restore(index);
    const bool spare_ok = quota_.fits(preemptor.team, flavor, total) &&
                          (!any_node_in(admitted_[index], used_nodes) ||
                           fits(preemptor, flavor, total, counts, &used_nodes));
    if (spare_ok) {
      choice.victims.erase(choice.victims.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      remove(index);
    }
  }
  for (const auto& [index, reason] : choice.victims) restore(index);
  choice.verdict = PreemptionVerdict::kPreempting;
  return choice;
}

}  // namespace allot
