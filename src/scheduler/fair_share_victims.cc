// VictimSelector under fair sharing (Kueue's fairPreemptions with its first
// strategy, LessThanOrEqualToFinalShare): victims one at a time from the team
// at the end of the highest-share path down the cohort tree.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "scheduler/fair_share.h"
#include "scheduler/victim_selector.h"

namespace allot {

// A team's or cohort's share only moves when the work of a team under it
// does (forget_shares_of); the preemptor's side counts the incoming workload,
// as Kueue's simulation does.
double VictimSelector::current_share(const Request& r, int32_t quota_node) {
  if (r.reclaim.on_preemptor_path(quota_node)) {
    // It depends only on the usage of quota_node and of the nodes below it on
    // the preemptor's path, so forget_shares_of() forgets it when that moves.
    double& after = share_after_[quota_node];
    if (std::isnan(after)) {
      after = weighted_share_after_in(quota_, quota_node, r.preemptor.team, r.flavor, r.total,
                                      share_outside(r, quota_node));
    }
    return after;
  }
  double& share = share_now_[quota_node];
  if (std::isnan(share)) {
    share = weighted_share_in(quota_, quota_node, r.flavor, share_outside(r, quota_node));
  }
  return share;
}

// Only the search's flavor moves during one search (every candidate runs in
// it), so the other flavors' part of a share is worked out once.
double VictimSelector::share_outside(const Request& r, int32_t quota_node) {
  double& outside = share_outside_[quota_node];
  if (std::isnan(outside)) outside = borrowed_ratio_outside(quota_, quota_node, r.flavor);
  return outside;
}

int32_t VictimSelector::next_fair_share_target(const Request& r, int32_t cohort) {
  const CompiledPolicy& policy = quota_.policy();
  int32_t best_team = -1;
  double best_team_share = -1;
  int32_t best_cohort = -1;
  double best_cohort_share = -1;
  for (int32_t child : live_children_[cohort]) {
    if (pruned_[child]) continue;
    const double share = current_share(r, child);
    if (!policy.is_team(child)) {
      // A cohort that does not borrow has nothing to give back, unless the
      // preemptor is inside it.
      if (share <= 0 && !r.reclaim.on_preemptor_path(child)) {
        pruned_[child] = true;
      } else if (share >= best_cohort_share) {
        best_cohort = child;
        best_cohort_share = share;
      }
      continue;
    }
    const std::vector<uint32_t>& work = team_candidates_[child];
    const size_t head = team_cursor_[child];
    if (head >= work.size() || (share <= 0 && TeamIndex(child) != r.preemptor.team)) {
      pruned_[child] = true;
      continue;
    }
    // Equal shares: the team whose next candidate comes first in preference.
    if (share > best_team_share ||
        (share == best_team_share &&
         candidate_rank_[work[head]] <
             candidate_rank_[team_candidates_[best_team][team_cursor_[best_team]]])) {
      best_team = child;
      best_team_share = share;
    }
  }
  if (best_team < 0 && best_cohort < 0) {
    pruned_[cohort] = true;
    return -1;
  }
  if (best_cohort >= 0 && best_cohort_share >= best_team_share) {
    return next_fair_share_target(r, best_cohort);
  }
  return best_team;
}

// Buckets the candidates by team (each candidate's rank is its place in
// the list), and lists under each cohort its children that hold candidates,
// in the order of their best candidate. Returns the cohorts whose lists were
// filled.
std::vector<int32_t> VictimSelector::index_fair_share_candidates(
    const std::vector<Candidate>& candidates) {
  const CompiledPolicy& policy = quota_.policy();
  reset_fair_share_search();
  std::vector<bool> seen(policy.quota_node_count(), false);
  std::vector<int32_t> teams;  // in the order of their first candidate
  for (uint32_t pos = 0; pos < candidates.size(); ++pos) {
    const int32_t team_node = policy.team(admitted_[candidates[pos].index].team).quota_node;
    if (!seen[team_node]) {
      seen[team_node] = true;
      teams.push_back(team_node);
      team_candidates_[team_node].clear();
    }
    team_candidates_[team_node].push_back(pos);
    candidate_rank_.push_back(pos);
  }
  return register_fair_share_teams(teams);
}

void VictimSelector::reset_fair_share_search() {
  const CompiledPolicy& policy = quota_.policy();
  const auto nodes = static_cast<size_t>(policy.quota_node_count());
  team_candidates_.resize(policy.team_count());
  team_cursor_.assign(policy.team_count(), 0);
  live_children_.resize(nodes);
  pruned_.assign(nodes, false);
  share_now_.assign(nodes, std::numeric_limits<double>::quiet_NaN());
  share_after_.assign(nodes, std::numeric_limits<double>::quiet_NaN());
  share_outside_.assign(nodes, std::numeric_limits<double>::quiet_NaN());
  child_heaps_.resize(nodes);
  heap_built_.resize(nodes, 0);
  list_position_.resize(nodes, 0);
  candidate_rank_.clear();
  candidate_slot_.clear();
  search_slots_ = nullptr;
}

std::vector<int32_t> VictimSelector::register_fair_share_teams(
    const std::vector<int32_t>& team_nodes) {
  const CompiledPolicy& policy = quota_.policy();
  std::vector<bool> registered(policy.quota_node_count(), false);
  std::vector<int32_t> touched;
  for (const int32_t team_node : team_nodes) {
    for (int32_t child = team_node; policy.parent(child) != kNoParent && !registered[child];
         child = policy.parent(child)) {
      registered[child] = true;
      live_children_[policy.parent(child)].push_back(child);
      touched.push_back(policy.parent(child));
    }
  }
  return touched;
}

// Kueue's first strategy against one target team: its candidates in order,
// the first whose removal leaves the target side's share at or above the
// preemptor side's share after admission is taken; the others are dropped.
bool VictimSelector::take_by_share(const Request& r, int32_t target,
                                   const std::vector<Candidate>& candidates, VictimChoice* choice) {
  const std::vector<uint32_t>& work = team_candidates_[target];
  size_t& head = team_cursor_[target];
  const int32_t preemptor_node = quota_.policy().team(r.preemptor.team).quota_node;
  // Shares are compared at the children of the two teams' lowest common cohort.
  const int32_t lca = candidates[work[head]].lca;
  const double preemptor_share = current_share(r, r.reclaim.child_of_lca(preemptor_node, lca));
  const int32_t target_side = r.reclaim.child_of_lca(target, lca);
  // Nothing moves in the tree during this walk, so the target's share after
  // a removal depends only on what the candidate holds: candidates of the
  // same size (most of a backlog's) share one computation.
  // The last size looked up is tried first: a team's backlog is mostly one size.
  constexpr size_t kRememberedSizes = 8;
  std::array<std::pair<ResourceVector, double>, kRememberedSizes> sizes;
  size_t remembered = 0;
  size_t last = 0;
  const auto same = [](const ResourceVector& a, const ResourceVector& b) {
    return a.gpu() == b.gpu() && a.cpu_millis() == b.cpu_millis() &&
           a.memory_bytes() == b.memory_bytes();
  };
  const auto share_after_removing = [&](const ResourceVector& held) {
    if (remembered > 0 && same(sizes[last].first, held)) return sizes[last].second;
    for (size_t k = 0; k < remembered; ++k) {
      if (same(sizes[k].first, held)) return sizes[last = k].second;
    }
    const double share = weighted_share_after_in(quota_, target_side, TeamIndex(target), r.flavor,
                                                 held * -1, share_outside(r, target_side));
    if (remembered < kRememberedSizes) {
      sizes[remembered] = {held, share};
      last = remembered++;
    }
    return share;
  };
  // A removal of more of every resource leaves the target side's share no
  // higher (weighted shares are monotone in usage, fair_share.h), so when
  // removing the least that any later candidate holds of each resource
  // already leaves it below the preemptor's, every one left is refused.
  TeamSlots* bounds = fair_share_indexed_ ? search_slots_ : nullptr;
  while (head < work.size()) {
    if (bounds != nullptr &&
        preemptor_share > share_after_removing(least_from(*bounds, candidate_slot_[work[head]]))) {
      share_refused_ = true;
      ++teams_refused_whole_;
      head = work.size();
      break;
    }
    const uint32_t pos = work[head++];
    const double target_share = share_after_removing(candidate_usage(pos, candidates));
    if (preemptor_share <= target_share) {
      return take(r, candidates[pos], PreemptionReason::kFairShare, true, choice);
    }
    share_refused_ = true;
  }
  return false;
}

bool VictimSelector::find_fair_share(const Request& r, const std::vector<Candidate>& candidates,
                                     VictimChoice* choice) {
  const std::vector<int32_t> touched = fair_share_indexed_
                                           ? std::move(fair_share_touched_)
                                           : index_fair_share_candidates(candidates);
  const int32_t preemptor_node = quota_.policy().team(r.preemptor.team).quota_node;
  const int32_t root = root_of(preemptor_node);
  bool fitted = false;
  if (root == preemptor_node) {  // no cohort: only the team's own work
    for (const Candidate& c : candidates) {
      if ((fitted = take(r, c, PreemptionReason::kWithinTeam, true, choice))) break;
    }
  }
  // One victim per round; the shares moved, so the target is chosen again.
  while (!fitted && root != preemptor_node && !pruned_[root]) {
    target_path_.clear();
    if (share_heaps_ && heap_built_[root] != 0) ++heap_rounds_;
    const int32_t target =
        share_heaps_ ? next_fair_share_target_by_heap(r, root) : next_fair_share_target(r, root);
    if (target < 0) continue;
    const uint32_t next = team_candidates_[target][team_cursor_[target]];
    if (target == preemptor_node) {
      ++team_cursor_[target];
      fitted = take(r, candidates[next], PreemptionReason::kWithinTeam, true, choice);
    } else if (r.reclaim.request_within_nominal()) {
      // A preemptor that claims only its nominal reclaims it whatever the
      // shares (Kueue's FairSharingPreemptWithinNominal, on by default).
      ++team_cursor_[target];
      fitted = take(r, candidates[next], PreemptionReason::kReclaimWithinCohort, true, choice);
    } else {
      fitted = take_by_share(r, target, candidates, choice);
    }
    if (share_heaps_) refresh_target_path(r);
  }
  clear_child_heaps(touched);
  for (int32_t cohort : touched) live_children_[cohort].clear();
  if (fitted) {
    minimize(r, true, choice);
    return true;
  }
  for (auto it = removed_.rbegin(); it != removed_.rend(); ++it) restore(*it);
  removed_.clear();
  return false;
}

}  // namespace allot
