#include "scheduler/victim_selector.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

namespace allot {
namespace {

constexpr double kUnknownShare = std::numeric_limits<double>::quiet_NaN();

// The node every pod of `w` runs on, if they share one.
NodeIndex single_node_of_victim(const AdmittedWorkload& w) {
  std::optional<NodeIndex> node;
  for (const PodSetAssignment& set : w.assignment) {
    for (const PodPlacement& pod : set.pods) {
      if (node && *node != pod.node) return NodeIndex::invalid();
      node = pod.node;
    }
  }
  return node.value_or(NodeIndex::invalid());
}

}  // namespace

// Work a preemption would throw away: since the last checkpoint of the
// current run, or since its start when none was reported during it.
int64_t VictimSelector::work_lost(const AdmittedWorkload& w) const {
  return (now_ - std::max(w.last_checkpoint, w.admitted_at)).ms();
}

VictimSelector::VictimSelector(QuotaTree& quota, CapacityIndex& capacity,
                               const std::vector<AdmittedWorkload>& admitted,
                               const std::vector<bool>& unavailable, Timestamp now)
    : quota_(quota),
      capacity_(capacity),
      admitted_(admitted),
      unavailable_(unavailable),
      now_(now) {
  const CompiledPolicy& policy = quota.policy();
  team_nodes_.reserve(static_cast<size_t>(policy.team_count()));
  for (int32_t t = 0; t < policy.team_count(); ++t) {
    const int32_t node = policy.team(TeamIndex(static_cast<uint32_t>(t))).quota_node;
    team_nodes_.push_back({node, policy.parent(node)});
  }
}

// What was known about a team's usage no longer holds once its work moves.
void VictimSelector::forget_shares_of(TeamIndex team) {
  if (share_now_.empty()) return;
  const CompiledPolicy& policy = quota_.policy();
  for (int32_t node = policy.team(team).quota_node; node != kNoParent; node = policy.parent(node)) {
    share_now_[node] = kUnknownShare;
    share_after_[node] = kUnknownShare;
  }
}

const VictimSelector::Held& VictimSelector::held(uint32_t index) {
  if (held_slot_.empty()) {
    held_slot_.assign(admitted_.size(), 0);
    held_.reserve(admitted_.size());  // never reallocated: references stay valid
  }
  uint32_t& slot = held_slot_[index];
  if (slot != 0) return held_[slot - 1];
  const AdmittedWorkload& w = admitted_[index];
  Held& h = held_.emplace_back(
      Held{w.team, w.flavor, static_cast<uint32_t>(held_pods_.size()), 0, w.usage()});
  for (size_t s = 0; s < w.assignment.size(); ++s) {
    for (const PodPlacement& pod : w.assignment[s].pods) {
      held_pods_.push_back({pod.node, pod.gpu_mask, w.pod_sets[s].per_pod});
    }
  }
  h.end_pod = static_cast<uint32_t>(held_pods_.size());
  slot = static_cast<uint32_t>(held_.size());
  return h;
}

const ResourceVector& VictimSelector::usage_of(uint32_t index) { return held(index).usage; }

bool VictimSelector::any_node_used(uint32_t index) {
  const Held& h = held(index);
  for (uint32_t p = h.first_pod; p < h.end_pod; ++p) {
    if (std::binary_search(used_nodes_.begin(), used_nodes_.end(), held_pods_[p].node)) return true;
  }
  return false;
}

NodeIndex VictimSelector::only_node_of(uint32_t index) {
  if (only_node_.empty()) {
    only_node_.reserve(admitted_.size());
    for (const AdmittedWorkload& w : admitted_) only_node_.push_back(single_node_of_victim(w));
  }
  return only_node_[index];
}

int32_t VictimSelector::root_of(int32_t quota_node) const {
  const CompiledPolicy& policy = quota_.policy();
  while (policy.parent(quota_node) != kNoParent) quota_node = policy.parent(quota_node);
  return quota_node;
}

const std::vector<VictimSelector::Slot>& VictimSelector::group(int32_t root, FlavorIndex flavor) {
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
  // Sorted by preference on first use; collect() only filters and splits
  // the candidates into Kueue's lists.
  auto [sorted, fresh] = sorted_groups_.try_emplace(it->first);
  if (fresh) {
    std::sort(it->second.begin(), it->second.end(), [&](uint32_t a, uint32_t b) {
      const AdmittedWorkload& x = admitted_[a];
      const AdmittedWorkload& y = admitted_[b];
      return std::make_tuple(x.priority, work_lost(x), -x.admitted_at.ms(), x.id) <
             std::make_tuple(y.priority, work_lost(y), -y.admitted_at.ms(), y.id);
    });
    sorted->second.reserve(it->second.size());
    for (uint32_t i : it->second) {
      const AdmittedWorkload& w = admitted_[i];
      const Duration min_runtime = quota_.policy().priority_class(w.priority_class).min_runtime;
      sorted->second.push_back(
          {i, w.team, w.priority, w.id, w.admitted_at + min_runtime, w.guaranteed()});
    }
  }
  return sorted->second;
}

// Whether another team's workload `w` may be taken, and how (Kueue's
// classifyPreemptionVariant). What depends only on the team is worked out
// once per collect().
bool VictimSelector::cross_team_candidate(const Request& r, const Slot& w, Candidate* out) {
  const TeamPreemption& rules = r.rules;
  const bool lower = w.priority < r.preemptor.priority;
  if (rules.reclaim_within_cohort == ReclaimPolicy::kLowerPriority && !lower) return false;
  if (quota_.policy().fair_sharing()) {
    if (!fair_share_team_open(r, w.team)) return false;
    *out = {out->index, Variant::kFairShare, team_lca_[w.team.value()], w.team};
    return true;
  }
  int8_t& open = team_open_[w.team.value()];
  if (open < 0) {
    const bool opened =
        cohort_views_on_ ? classic_team_open(r, w.team) : classic_team_open_plain(r, w.team);
    open = opened ? 1 : 0;
  }
  if (open == 0) return false;
  Variant variant = team_variant_[w.team.value()];
  if (variant == Variant::kWithoutBorrowing) {
    // borrowWithinCohort opens lower-priority work at or below the threshold
    // to a preemptor that borrows.
    const bool open_while_borrowing =
        rules.borrow_within_cohort == BorrowWithinCohortPolicy::kLowerPriority && lower &&
        (!rules.borrow_max_priority_threshold.has_value() ||
         w.priority <= *rules.borrow_max_priority_threshold);
    if (open_while_borrowing) variant = Variant::kWhileBorrowing;
  }
  *out = {out->index, variant, team_lca_[w.team.value()], w.team};
  return true;
}

// relation_to() and still_above_quota() of CohortReclaim, split at the
// team's cohort: the team itself is never on the preemptor's path (its own
// team's work is judged apart), so its relation is its cohort's, and what
// lies above it is the same for every team of the cohort.
bool VictimSelector::classic_team_open(const Request& r, TeamIndex team) {
  const auto [node, cohort] = team_nodes_[team.value()];
  team_lca_[team.value()] = -1;
  if (cohort == kNoParent || !r.reclaim.above_quota(node)) return false;
  const CohortView& view = cohort_view(r, cohort);
  team_lca_[team.value()] = view.relation.lca;
  if (view.relation.lca < 0 || !view.chain_above) return false;
  team_variant_[team.value()] =
      view.relation.advantage ? Variant::kHierarchical : Variant::kWithoutBorrowing;
  return true;
}

bool VictimSelector::classic_team_open_plain(const Request& r, TeamIndex team) {
  const CohortReclaim::Relation relation = r.reclaim.relation_to(team);
  team_lca_[team.value()] = relation.lca;
  if (relation.lca < 0 || !r.reclaim.still_above_quota(team, relation.lca)) return false;
  team_variant_[team.value()] =
      relation.advantage ? Variant::kHierarchical : Variant::kWithoutBorrowing;
  return true;
}

const VictimSelector::CohortView& VictimSelector::cohort_view(const Request& r, int32_t cohort) {
  CohortView& view = cohort_views_[cohort];
  if (view.stamp == collect_stamp_) return view;
  view.stamp = collect_stamp_;
  view.relation = r.reclaim.relation_from(cohort);
  view.chain_above = true;
  const CompiledPolicy& policy = quota_.policy();
  for (int32_t node = cohort; node != view.relation.lca && node != kNoParent;
       node = policy.parent(node)) {
    if (!r.reclaim.above_quota(node)) {
      view.chain_above = false;
      break;
    }
  }
  return view;
}

std::vector<VictimSelector::Candidate> VictimSelector::collect(const Request& r, bool* too_young,
                                                               bool* any_allowed, Shortcut shortcut,
                                                               bool* settled) {
  const CompiledPolicy& policy = quota_.policy();
  const PendingWorkload& preemptor = r.preemptor;
  const TeamPreemption& rules = policy.team(preemptor.team).preemption;
  const bool cross_team_allowed = rules.reclaim_within_cohort != ReclaimPolicy::kNever;
  *any_allowed = cross_team_allowed || rules.within_team != WithinTeamPolicy::kNever;
  std::vector<Candidate> out;
  if (!*any_allowed) return out;
  team_open_.assign(policy.team_count(), -1);
  team_lca_.resize(policy.team_count());
  team_variant_.resize(policy.team_count());
  cohort_views_.resize(policy.quota_node_count());
  ++collect_stamp_;  // the cohorts' views of the last collect() no longer hold
  const int32_t root = root_of(policy.team(preemptor.team).quota_node);
  const std::vector<Slot>& slots = group(root, r.flavor);
  out.reserve(slots.size());  // grown once, not by doubling
  // What rules a slot out by its team alone is looked at first: a team known
  // closed (team_open_ 0) costs one read of a small array, where the slot's
  // own unavailable_ bit is a read scattered over every admitted workload.
  for (const Slot& w : slots) {
    const uint32_t i = w.index;
    Candidate c{i, Variant::kWithinTeam, -1, w.team};
    if (w.team == preemptor.team) {
      if (rules.within_team == WithinTeamPolicy::kNever || w.priority >= preemptor.priority)
        continue;
    } else if (!cross_team_allowed || team_open_[w.team.value()] == 0 || w.guaranteed ||
               !cross_team_candidate(r, w, &c)) {
      // An endpoint's guaranteed replica is never another team's victim.
      continue;
    }
    if (unavailable_[i] || w.id == preemptor.preempted_by) continue;
    if (now_ < w.ripe) {
      *too_young = true;
      continue;
    }
    out.push_back(c);
    if (shortcut == Shortcut::kClassicInsufficient ||
        (shortcut == Shortcut::kFairShareRefused && w.team != preemptor.team &&
         positive_share(w.team))) {
      *settled = true;
      return out;
    }
  }
  // Kueue's order of the lists: work the preemptor has a hierarchical
  // advantage over (and, under fair sharing, all other teams' work), then
  // other teams' work, then its own team's.
  const auto rank = [](const Candidate& c) {
    if (c.variant == Variant::kWithinTeam) return 2;
    return c.variant == Variant::kHierarchical || c.variant == Variant::kFairShare ? 0 : 1;
  };
  // (Three linear passes: a stable split by rank.)
  std::vector<Candidate> ranked;
  ranked.reserve(out.size());
  for (int wanted = 0; wanted <= 2; ++wanted) {
    for (const Candidate& c : out) {
      if (rank(c) == wanted) ranked.push_back(c);
    }
  }
  return ranked;
}

bool VictimSelector::quota_fits(const Request& r, bool allow_borrowing) const {
  // A guaranteed endpoint replica must fit within nominal even where borrowing is allowed.
  const bool may_borrow = allow_borrowing && !r.preemptor.guaranteed();
  return quota_.fits(r.preemptor.team, r.flavor, r.total) &&
         (may_borrow || !quota_.would_borrow(r.preemptor.team, r.flavor, r.total));
}

bool VictimSelector::fits(const Request& r, bool allow_borrowing) {
  // The latches (victim_selector.h, quota_known_to_fit_) answer without the quota walk or the
  // placer.
  if (shortcuts_ && placement_known_to_fail_) {
    ++fits_latched_;
    return false;
  }
  if (!shortcuts_ || !quota_known_to_fit_ || quota_known_allow_ != allow_borrowing) {
    if (!quota_fits(r, allow_borrowing)) return false;
    quota_known_to_fit_ = true;
    quota_known_allow_ = allow_borrowing;
  }
  if (!r.total.fits_in(capacity_.flavor_free(r.flavor))) {
    placement_known_to_fail_ = true;
    return false;
  }
  GangPlacer placer(capacity_);
  auto placed = placer.place(
      {r.preemptor.id, r.flavor, r.preemptor.pod_sets, r.counts, Timestamp::infinite_future()});
  if (!placed) {
    placement_known_to_fail_ = true;
    return false;
  }
  used_nodes_.clear();
  for (const auto& set : *placed) {
    for (const auto& pod : set.pods) used_nodes_.push_back(pod.node);
  }
  std::sort(used_nodes_.begin(), used_nodes_.end());
  return true;
}

void VictimSelector::remove(uint32_t index) {
  const Held& h = held(index);
  // Free capacity grows: only take() knows whether a known placement failure still holds.
  placement_known_to_fail_ = false;
  forget_shares_of(h.team);
  quota_.remove_usage(h.team, h.flavor, h.usage);
  for (uint32_t p = h.first_pod; p < h.end_pod; ++p) {
    const HeldPod& pod = held_pods_[p];
    capacity_.release(pod.node, pod.per_pod, pod.gpu_mask);
  }
}

void VictimSelector::restore(uint32_t index) {
  const Held& h = held(index);
  placement_known_to_fail_ = false;
  quota_known_to_fit_ = false;
  forget_shares_of(h.team);
  quota_.add_usage(h.team, h.flavor, h.usage);
  for (uint32_t p = h.first_pod; p < h.end_pod; ++p) {
    const HeldPod& pod = held_pods_[p];
    capacity_.hold(pod.node, pod.per_pod, pod.gpu_mask);
  }
}

bool VictimSelector::take(const Request& r, const Candidate& c, PreemptionReason reason,
                          bool allow_borrowing, VictimChoice* choice) {
  const bool placement_failed = placement_known_to_fail_;
  remove(c.index);
  placement_known_to_fail_ = placement_failed && !room_for_a_pod(r, c.index);
  removed_.push_back(c.index);
  choice->victims.emplace_back(c.index, reason);
  return fits(r, allow_borrowing);
}

void VictimSelector::minimize(const Request& r, bool allow_borrowing, VictimChoice* choice) {
  for (size_t i = removed_.size(); i-- > 0;) {
    const uint32_t index = removed_[i];
    restore(index);
    const bool spare_ok =
        quota_fits(r, allow_borrowing) && (!any_node_used(index) || fits(r, allow_borrowing));
    if (spare_ok) {
      choice->victims.erase(choice->victims.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      remove(index);
    }
  }
  // Work opened by borrowWithinCohort is reported as such only when the
  // preemptor does borrow once the victims are gone.
  const bool borrows = quota_.would_borrow(r.preemptor.team, r.flavor, r.total);
  for (auto& [index, reason] : choice->victims) {
    if (reason == PreemptionReason::kBorrowWithinCohort && !borrows)
      reason = PreemptionReason::kReclaimWithinCohort;
    restore(index);
  }
  removed_.clear();
  choice->within_nominal = !allow_borrowing;
}

PreemptionReason VictimSelector::reason_for(const Candidate& c) {
  if (c.variant == Variant::kWithinTeam) return PreemptionReason::kWithinTeam;
  return c.variant == Variant::kWhileBorrowing ? PreemptionReason::kBorrowWithinCohort
                                               : PreemptionReason::kReclaimWithinCohort;
}

bool VictimSelector::open_now(const Request& r, const Candidate& c, bool allow_borrowing) const {
  if (c.variant == Variant::kWithinTeam) return true;
  if (allow_borrowing && c.variant == Variant::kWithoutBorrowing) return false;
  return r.reclaim.still_above_quota_from(team_nodes_[c.team.value()].node, c.lca);
}

bool VictimSelector::greedy_pass(const Request& r, const std::vector<Candidate>& order,
                                 bool allow_borrowing, VictimChoice* choice) {
  choice->victims.clear();
  removed_.clear();
  for (const Candidate& c : order) {
    if (!open_now(r, c, allow_borrowing)) continue;
    if (take(r, c, reason_for(c), allow_borrowing, choice)) {
      minimize(r, allow_borrowing, choice);
      return true;
    }
  }
  for (auto it = removed_.rbegin(); it != removed_.rend(); ++it) restore(*it);
  removed_.clear();
  choice->victims.clear();
  return false;
}

bool VictimSelector::classic_pass(const Request& r, const std::vector<Candidate>& candidates,
                                  bool allow_borrowing, VictimChoice* choice) {
  return greedy_pass(r, candidates, allow_borrowing, choice) ||
         node_first_passes(r, candidates, allow_borrowing, choice) ||
         gang_node_first_pass(r, candidates, allow_borrowing, choice) ||
         node_clearing_pass(r, candidates, allow_borrowing, choice);
}

std::vector<std::pair<NodeIndex, int64_t>> VictimSelector::nodes_by_room(
    const std::vector<NodeIndex>& touched, int64_t largest_pod, size_t keep) {
  std::vector<std::pair<NodeIndex, int64_t>> nodes;  // (node, free + freeable GPUs)
  for (const NodeIndex node : touched) {
    const int64_t room = capacity_.free(node)[Resource::kGpu] + freeable_gpus_[node.value()];
    freeable_gpus_[node.value()] = -1;
    if (room >= largest_pod) nodes.emplace_back(node, room);
  }
  // Only the first few are walked: they are picked, not the whole list sorted.
  const auto first = [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first < b.first;
  };
  const size_t kept = std::min(keep, nodes.size());
  std::partial_sort(nodes.begin(), nodes.begin() + static_cast<std::ptrdiff_t>(kept), nodes.end(),
                    first);
  nodes.resize(kept);
  return nodes;
}

bool VictimSelector::node_first_passes(const Request& r, const std::vector<Candidate>& candidates,
                                       bool allow_borrowing, VictimChoice* choice) {
  constexpr size_t kNodeFirstTries = 4;
  int64_t largest_pod = 0;
  for (const PodSetRequest& set : r.preemptor.pod_sets) {
    largest_pod = std::max(largest_pod, set.per_pod[Resource::kGpu]);
  }
  if (largest_pod == 0) return false;
  // GPUs held by the candidates that run only on one node, summed by node.
  if (freeable_gpus_.empty()) freeable_gpus_.assign(quota_.policy().node_count(), -1);
  std::vector<NodeIndex> touched;
  std::vector<NodeIndex> node_of;  // by candidate
  node_of.reserve(candidates.size());
  for (const Candidate& c : candidates) {
    const NodeIndex node = only_node_of(c.index);
    node_of.push_back(node);
    if (!node.valid()) continue;
    int64_t& gpus = freeable_gpus_[node.value()];
    if (gpus < 0) {
      gpus = 0;
      touched.push_back(node);
    }
    gpus += usage_of(c.index)[Resource::kGpu];
  }
  const std::vector<std::pair<NodeIndex, int64_t>> nodes =
      nodes_by_room(touched, largest_pod, kNodeFirstTries);
  // Each chosen node's candidates, in candidate order, gathered in one walk.
  std::vector<std::vector<Candidate>> orders(nodes.size());
  for (size_t i = 0; i < candidates.size(); ++i) {
    for (size_t k = 0; k < nodes.size(); ++k) {
      if (node_of[i] == nodes[k].first) orders[k].push_back(candidates[i]);
    }
  }
  for (const std::vector<Candidate>& order : orders) {
    if (greedy_pass(r, order, allow_borrowing, choice)) return true;
  }
  return false;
}

// Kueue's classicalPreemptions: which of the two passes (borrowing allowed or
// not) to try, and in what order.
bool VictimSelector::find_classic(const Request& r, const std::vector<Candidate>& candidates,
                                  VictimChoice* choice) {
  const TeamPreemption& rules = quota_.policy().team(r.preemptor.team).preemption;
  bool any_cross = false;
  bool any_hierarchical = false;
  for (const Candidate& c : candidates) {
    any_cross = any_cross || c.variant != Variant::kWithinTeam;
    any_hierarchical = any_hierarchical || c.variant == Variant::kHierarchical;
  }
  const bool borrowing_forbidden = rules.borrow_within_cohort == BorrowWithinCohortPolicy::kNever;
  std::vector<bool> passes;
  if (r.preemptor.guaranteed()) {
    passes = {false};  // it is admitted only within nominal (endpoint_replicas.h)
  } else if (!any_cross || (borrowing_forbidden && !r.reclaim.preemptor_under_nominal())) {
    passes = {true};
  } else if (borrowing_forbidden && !any_hierarchical) {
    passes = {false, true};
  } else {
    passes = {true, false};
  }
  for (const bool allow_borrowing : passes) {
    if (classic_pass(r, candidates, allow_borrowing, choice)) return true;
  }
  return false;
}

// Whether a pod of the preemptor now fits on a node that victim `index` ran on.
bool VictimSelector::room_for_a_pod(const Request& r, uint32_t index) {
  const Held& h = held(index);
  for (uint32_t p = h.first_pod; p < h.end_pod; ++p) {
    for (const PodSetRequest& set : r.preemptor.pod_sets) {
      if (capacity_.fits(held_pods_[p].node, set.per_pod)) return true;
    }
  }
  return false;
}

VictimChoice VictimSelector::find(const PendingWorkload& preemptor, FlavorIndex flavor,
                                  const ResourceVector& total, std::span<const int32_t> counts) {
  // Quota and capacity may have moved since the last search.
  placement_known_to_fail_ = false;
  quota_known_to_fit_ = false;
  // Every victim taken during the search is put back: the quota's usage is
  // then what it was, and so is what it had cached.
  const uint64_t mark = quota_.usage_mark();
  VictimChoice choice = search(preemptor, flavor, total, counts);
  quota_.back_to(mark);
  return choice;
}

VictimChoice VictimSelector::search(const PendingWorkload& preemptor, FlavorIndex flavor,
                                    const ResourceVector& total, std::span<const int32_t> counts) {
  const CohortReclaim reclaim(quota_, preemptor.team, flavor, total,
                              contested_resources(quota_, preemptor.team, flavor, total),
                              /*kept_judgements=*/shortcuts_ && cohort_views_on_);
  const TeamPreemption& rules = quota_.policy().team(preemptor.team).preemption;
  const Request request{preemptor, flavor, total, counts, reclaim, rules};
  bool too_young = false;
  bool any_allowed = false;
  const Shortcut shortcut = shortcuts_ ? known_to_fail(request) : Shortcut::kNone;
  bool settled = false;
  fair_share_indexed_ = false;
  const std::vector<Candidate> candidates =
      shortcuts_ && quota_.policy().fair_sharing()
          ? collect_fair_share(request, &too_young, &any_allowed, shortcut, &settled)
          : collect(request, &too_young, &any_allowed, shortcut, &settled);
  VictimChoice choice;
  if (!any_allowed) {
    choice.verdict = PreemptionVerdict::kNotAllowed;
    return choice;
  }
  if (settled) {
    ++shortcuts_taken_;
    choice.verdict = shortcut == Shortcut::kFairShareRefused ? PreemptionVerdict::kFairShareRefused
                                                             : PreemptionVerdict::kInsufficient;
    return choice;
  }
  if (candidates.empty()) {
    choice.verdict =
        too_young ? PreemptionVerdict::kCandidatesTooYoung : PreemptionVerdict::kNoCandidates;
    return choice;
  }
  share_refused_ = false;
  removed_.clear();
  const bool fitted = quota_.policy().fair_sharing() ? find_fair_share(request, candidates, &choice)
                                                     : find_classic(request, candidates, &choice);
  if (!fitted) {
    choice.victims.clear();
    choice.verdict =
        share_refused_ ? PreemptionVerdict::kFairShareRefused : PreemptionVerdict::kInsufficient;
    return choice;
  }
  choice.verdict = PreemptionVerdict::kPreempting;
  return choice;
}

}  // namespace allot
