// The consolidation half of SchedulingCycle (a cluster's
// scheduling.consolidation: WithinNominal; docs/scheduling.md,
// "Consolidation"). A workload that keeps its team within its nominal quota,
// that no node can hold and that no preemption under Kueue's rules serves,
// because work that no reclaim may take (work within its team's nominal)
// splits the room, has such work moved to other nodes:
//
// - each of its pods, largest first, takes the node of its flavor that needs
//   the fewest GPUs moved, then the fewest reclaimed (ties by node order), of
//   at most 16 nodes tried in order of the fewest GPUs they must move at least;
// - on that node, borrowers' work it may reclaim goes first, within Kueue's
//   bound (a team's work only while the team uses more than its nominal),
//   then work within nominal, smallest first; then, latest first, whatever
//   the pod turns out not to need is put back;
// - each piece of work moved (largest first) must fit elsewhere now: on the
//   free room of another node (best fit), else on the room that reclaiming
//   borrowers' work there frees (the fewest GPUs reclaimed, of at most 8 nodes
//   tried, those lacking the fewest GPUs first). Nodes reserved or drained for
//   any workload take none;
// - the workload's quota must fit once the reclaimed work is gone (moved
//   work keeps its quota: it is admitted again).
//
// Movable work runs on one node, is not an endpoint's guaranteed replica, is
// past its class's minRuntime, is not stopping, and did not preempt the
// workload (no loops). Moved work is preempted with reason Consolidation: it
// gets its grace period, is requeued at its original position and restarts
// from its last checkpoint; within its team's nominal, it comes first in the
// next cycles' order. The workload then waits for its victims like any
// preemptor, its nodes held for it (keep_consolidation_hold()). A search that
// failed answers the team's later no-larger workloads until the cycle's state
// changes.
#include <algorithm>
#include <optional>
#include <tuple>
#include <vector>

#include "scheduler/scheduling_cycle.h"

namespace allot {

// One search for one workload in one flavor: free room per node and quota
// as the takes so far leave them, each change logged so that a trial can be
// undone.
struct SchedulingCycle::MoveSearch {
  SchedulingCycle& cycle;
  const PendingWorkload& w;
  FlavorIndex flavor;
  std::vector<ResourceVector> free;  // by node index
  // By node index, GPUs of the work there that the search may still reclaim
  // (borrowers' work w may take, its team borrowing when the search began) or move.
  // Summed when a node is first looked at (sum()): most nodes of a large
  // cluster never are.
  std::vector<int64_t> reclaimable;
  std::vector<int64_t> movable;
  std::vector<bool> summed;
  std::vector<bool> targeted;  // by node index: holds a pod of w
  std::vector<bool> taken;     // by admitted index
  struct Take {
    uint32_t admitted = 0;
    NodeIndex node;
    bool moved = false;  // else reclaimed
  };
  struct Place {
    NodeIndex node;
    ResourceVector amount;
  };
  std::vector<Take> takes;
  std::vector<Place> places;  // moved work and w's pods, on their nodes

  struct Mark {
    size_t takes = 0;
    size_t places = 0;
  };
  [[nodiscard]] Mark mark() const { return {takes.size(), places.size()}; }

  void sum(NodeIndex node) {
    const size_t n = node.value();
    if (summed[n]) return;
    summed[n] = true;
    for (uint32_t index : cycle.single_node_work_[n]) {
      const int64_t gpus = cycle.snapshot_.admitted[index].usage().gpu();
      if (cycle.consolidation_victim(w, index, true)) movable[n] += gpus;
      if (cycle.consolidation_victim(w, index, false)) reclaimable[n] += gpus;
    }
  }
  // At most what the node's free room and all the work that runs there alone could give.
  [[nodiscard]] int64_t could_free(NodeIndex node) const {
    return free[node.value()].gpu() + cycle.single_node_gpus_[node.value()];
  }

  void take(uint32_t index, NodeIndex node, bool moved) {
    sum(node);
    const AdmittedWorkload& a = cycle.snapshot_.admitted[index];
    taken[index] = true;
    free[node.value()] += a.usage();
    (moved ? movable : reclaimable)[node.value()] -= a.usage().gpu();
    if (!moved) cycle.quota_.remove_usage(a.team, a.flavor, a.usage());
    takes.push_back({index, node, moved});
  }
  void untake_last() {
    const Take t = takes.back();
    takes.pop_back();
    const AdmittedWorkload& a = cycle.snapshot_.admitted[t.admitted];
    taken[t.admitted] = false;
    free[t.node.value()] -= a.usage();
    (t.moved ? movable : reclaimable)[t.node.value()] += a.usage().gpu();
    if (!t.moved) cycle.quota_.add_usage(a.team, a.flavor, a.usage());
  }
  void place(NodeIndex node, const ResourceVector& amount) {
    free[node.value()] -= amount;
    places.push_back({node, amount});
  }
  void back_to(const Mark& m) {
    while (places.size() > m.places) {
      free[places.back().node.value()] += places.back().amount;
      places.pop_back();
    }
    while (takes.size() > m.takes) untake_last();
  }
  // GPUs moved, then GPUs reclaimed, by the takes since `from`: what a choice costs.
  [[nodiscard]] std::tuple<int64_t, int64_t> cost_since(size_t from) const {
    int64_t moved = 0;
    int64_t reclaimed = 0;
    for (size_t i = from; i < takes.size(); ++i) {
      (takes[i].moved ? moved : reclaimed) +=
          cycle.snapshot_.admitted[takes[i].admitted].usage().gpu();
    }
    return {moved, reclaimed};
  }
  void undo_targets_after(size_t first_place) {
    for (size_t i = first_place; i < places.size(); ++i) targeted[places[i].node.value()] = false;
  }
};

void SchedulingCycle::note_single_node_work() {
  if (!single_node_work_.empty()) return;
  single_node_work_.resize(policy_.node_count());
  single_node_gpus_.assign(policy_.node_count(), 0);
  single_node_gpus_of_flavor_.assign(policy_.flavor_count(), 0);
  for (uint32_t i = 0; i < snapshot_.admitted.size(); ++i) {
    NodeIndex only;
    bool one_node = true;
    for (const PodSetAssignment& set : snapshot_.admitted[i].assignment) {
      for (const PodPlacement& pod : set.pods) {
        if (!only.valid()) only = pod.node;
        one_node = one_node && pod.node == only;
      }
    }
    if (one_node && only.valid() && only.value() < single_node_work_.size()) {
      single_node_work_[only.value()].push_back(i);
      const int64_t gpus = snapshot_.admitted[i].usage().gpu();
      single_node_gpus_[only.value()] += gpus;
      single_node_gpus_of_flavor_[policy_.node(only).flavor.value()] += gpus;
    }
  }
}

// Whether w may take the snapshot's admitted workload at `index` in a
// consolidation: moved when `moved`, else reclaimed (then only while its team
// uses more than its nominal).
bool SchedulingCycle::consolidation_victim(const PendingWorkload& w, uint32_t index,
                                           bool moved) const {
  const AdmittedWorkload& a = snapshot_.admitted[index];
  if (unavailable_[index] || a.terminating || a.guaranteed() || a.id == w.preempted_by) {
    return false;
  }
  if (a.admitted_at + policy_.priority_class(a.priority_class).min_runtime > snapshot_.now) {
    return false;
  }
  if (moved) return tenancy_.anchored(index);
  return !tenancy_.anchored(index) && may_reclaim(w, a.team, a.priority, a.guaranteed()) &&
         quota_.borrowing(a.team, a.flavor);
}

// Least work lost first (the most recent start or checkpoint), then by id.
bool SchedulingCycle::loses_less(uint32_t a, uint32_t b) const {
  const AdmittedWorkload& x = snapshot_.admitted[a];
  const AdmittedWorkload& y = snapshot_.admitted[b];
  const Timestamp since_x = std::max(x.admitted_at, x.last_checkpoint);
  const Timestamp since_y = std::max(y.admitted_at, y.last_checkpoint);
  if (since_x != since_y) return since_x > since_y;
  return x.id < y.id;
}

// Reclaims borrowers' work on `node` (least work lost first) until `amount`
// fits its free room. False (the takes undone) when it cannot.
bool SchedulingCycle::reclaim_room(MoveSearch& s, NodeIndex node, const ResourceVector& amount) {
  const MoveSearch::Mark before = s.mark();
  std::vector<uint32_t> borrowers;
  for (uint32_t index : single_node_work_[node.value()]) {
    if (!s.taken[index] && !tenancy_.anchored(index)) borrowers.push_back(index);
  }
  std::sort(borrowers.begin(), borrowers.end(),
            [&](uint32_t a, uint32_t b) { return loses_less(a, b); });
  for (uint32_t index : borrowers) {
    if (amount.fits_in(s.free[node.value()])) break;
    if (consolidation_victim(s.w, index, false)) s.take(index, node, false);
  }
  if (amount.fits_in(s.free[node.value()])) return true;
  s.back_to(before);
  return false;
}

// A node for moved work of `amount`: free room (best fit), else the room
// that the fewest GPUs reclaimed free. False when none.
bool SchedulingCycle::place_moved(MoveSearch& s, const ResourceVector& amount) {
  NodeIndex best;
  for (NodeIndex m : capacity_.topology().nodes_of_flavor(s.flavor)) {
    if (s.targeted[m.value()] || !capacity_.schedulable(m) || capacity_.reserved(m) ||
        !amount.fits_in(s.free[m.value()])) {
      continue;
    }
    if (!best.valid() || s.free[m.value()].gpu() < s.free[best.value()].gpu()) best = m;
  }
  if (best.valid()) {
    s.place(best, amount);
    return true;
  }
  // Else the nodes whose reclaimable work covers what they lack, fewest GPUs
  // lacking first; a few are tried (each a reclaim within the bound).
  constexpr size_t kRoomTrials = 8;
  std::vector<std::pair<int64_t, NodeIndex>> lacking;
  for (NodeIndex m : capacity_.topology().nodes_of_flavor(s.flavor)) {
    const int64_t lack = amount.gpu() - s.free[m.value()].gpu();
    if (s.could_free(m) < amount.gpu() || s.targeted[m.value()]) continue;
    s.sum(m);
    if (!capacity_.schedulable(m) || capacity_.reserved(m) || s.reclaimable[m.value()] < lack ||
        !amount.fits_in(policy_.node(m).node.capacity)) {
      continue;
    }
    lacking.emplace_back(lack, m);
  }
  const size_t trials = std::min(kRoomTrials, lacking.size());
  std::partial_sort(lacking.begin(), lacking.begin() + static_cast<std::ptrdiff_t>(trials),
                    lacking.end());
  int64_t best_reclaimed = INT64_MAX;
  for (size_t k = 0; k < trials; ++k) {
    const NodeIndex m = lacking[k].second;
    const size_t from = s.takes.size();
    if (!reclaim_room(s, m, amount)) continue;
    const int64_t reclaimed = std::get<1>(s.cost_since(from));
    while (s.takes.size() > from) s.untake_last();
    if (reclaimed < best_reclaimed) {
      best_reclaimed = reclaimed;
      best = m;
    }
  }
  if (!best.valid()) return false;
  const bool reclaimed = reclaim_room(s, best, amount);
  ALLOT_CHECK(reclaimed);
  s.place(best, amount);
  return true;
}

// Clears room for one pod of `per_pod` on `node`: reclaims, then moves (see
// the file comment). False (everything undone) when it cannot.
bool SchedulingCycle::clear_for_pod(MoveSearch& s, NodeIndex node, const ResourceVector& per_pod) {
  const MoveSearch::Mark before = s.mark();
  std::vector<uint32_t> borrowers;
  std::vector<uint32_t> movers;
  for (uint32_t index : single_node_work_[node.value()]) {
    if (s.taken[index]) continue;
    (tenancy_.anchored(index) ? movers : borrowers).push_back(index);
  }
  std::sort(borrowers.begin(), borrowers.end(),
            [&](uint32_t a, uint32_t b) { return loses_less(a, b); });
  std::sort(movers.begin(), movers.end(), [&](uint32_t a, uint32_t b) {
    const int64_t ga = snapshot_.admitted[a].usage().gpu();
    const int64_t gb = snapshot_.admitted[b].usage().gpu();
    return ga != gb ? ga < gb : loses_less(a, b);
  });
  const auto fits = [&] { return per_pod.fits_in(s.free[node.value()]); };
  for (uint32_t index : borrowers) {
    if (fits()) break;
    if (consolidation_victim(s.w, index, false)) s.take(index, node, false);
  }
  for (uint32_t index : movers) {
    if (fits()) break;
    if (consolidation_victim(s.w, index, true)) s.take(index, node, true);
  }
  if (!fits()) {
    s.back_to(before);
    return false;
  }
  spare_unneeded(s, node, per_pod, before.takes);
  s.targeted[node.value()] = true;
  s.place(node, per_pod);
  // The moved work goes elsewhere, largest first.
  std::vector<uint32_t> moved;
  for (size_t i = before.takes; i < s.takes.size(); ++i) {
    if (s.takes[i].moved) moved.push_back(s.takes[i].admitted);
  }
  std::stable_sort(moved.begin(), moved.end(), [&](uint32_t a, uint32_t b) {
    return snapshot_.admitted[a].usage().gpu() > snapshot_.admitted[b].usage().gpu();
  });
  for (uint32_t index : moved) {
    if (!place_moved(s, snapshot_.admitted[index].usage())) {
      s.targeted[node.value()] = false;
      s.back_to(before);
      return false;
    }
  }
  return true;
}

// Puts back, latest first, each take since `from` that the pod does not need.
void SchedulingCycle::spare_unneeded(MoveSearch& s, NodeIndex node, const ResourceVector& per_pod,
                                     size_t from) {
  std::vector<MoveSearch::Take> kept(s.takes.begin() + static_cast<std::ptrdiff_t>(from),
                                     s.takes.end());
  while (s.takes.size() > from) s.untake_last();
  std::vector<bool> spared(kept.size(), false);
  for (size_t k = kept.size(); k-- > 0;) {
    ResourceVector without = s.free[node.value()];
    for (size_t i = 0; i < kept.size(); ++i) {
      if (i != k && !spared[i]) without += snapshot_.admitted[kept[i].admitted].usage();
    }
    if (per_pod.fits_in(without)) spared[k] = true;
  }
  for (size_t i = 0; i < kept.size(); ++i) {
    if (!spared[i]) s.take(kept[i].admitted, node, kept[i].moved);
  }
}

// The node for one pod of `per_pod` that needs the fewest GPUs moved, then
// reclaimed (ties by node order). Nodes are tried in order of the fewest GPUs
// they must move at least (what their free room and reclaimable work leave
// short), a few of them, until none left could do better.
NodeIndex SchedulingCycle::best_target(MoveSearch& s, const ResourceVector& per_pod) {
  constexpr size_t kTargetTrials = 16;
  std::vector<std::pair<int64_t, NodeIndex>> bounds;
  for (NodeIndex n : capacity_.topology().nodes_of_flavor(s.flavor)) {
    const size_t i = n.value();
    if (s.could_free(n) < per_pod.gpu() || s.targeted[i]) continue;
    s.sum(n);
    const int64_t short_of = per_pod.gpu() - s.free[i].gpu() - s.reclaimable[i];
    if (!capacity_.schedulable(n) || s.movable[i] < short_of ||
        !per_pod.fits_in(policy_.node(n).node.capacity) ||
        (capacity_.reserved(n) && capacity_.reserved_for(n) != s.w.id)) {
      continue;
    }
    bounds.emplace_back(std::max<int64_t>(0, short_of), n);
  }
  const size_t trials = std::min(kTargetTrials, bounds.size());
  std::partial_sort(bounds.begin(), bounds.begin() + static_cast<std::ptrdiff_t>(trials),
                    bounds.end());
  NodeIndex best;
  std::tuple<int64_t, int64_t> best_cost{INT64_MAX, INT64_MAX};
  for (size_t k = 0; k < trials && bounds[k].first <= std::get<0>(best_cost); ++k) {
    const NodeIndex n = bounds[k].second;
    const MoveSearch::Mark before = s.mark();
    if (!clear_for_pod(s, n, per_pod)) continue;
    const std::tuple<int64_t, int64_t> cost = s.cost_since(before.takes);
    s.undo_targets_after(before.places);
    s.back_to(before);
    if (cost < best_cost) {
      best_cost = cost;
      best = n;
    }
  }
  return best;
}

std::optional<VictimChoice> SchedulingCycle::find_consolidation(const PendingWorkload& w,
                                                                FlavorIndex flavor,
                                                                const ResourceVector& total,
                                                                std::vector<NodeIndex>* targets) {
  note_single_node_work();
  // Nothing to move: no running work of the flavor runs on one node alone.
  if (single_node_gpus_of_flavor_[flavor.value()] == 0) return std::nullopt;
  MoveSearch s{*this, w, flavor, {}, {}, {}, {}, {}, {}, {}, {}};
  s.free.resize(policy_.node_count());
  s.reclaimable.assign(policy_.node_count(), 0);
  s.movable.assign(policy_.node_count(), 0);
  s.summed.assign(policy_.node_count(), false);
  for (NodeIndex n : capacity_.topology().nodes_of_flavor(flavor))
    s.free[n.value()] = capacity_.free(n);
  s.targeted.assign(policy_.node_count(), false);
  s.taken.assign(snapshot_.admitted.size(), false);
  std::vector<ResourceVector> pods;
  for (const PodSetRequest& set : w.pod_sets) {
    if (set.required_flavor.valid() && set.required_flavor != flavor) return std::nullopt;
    for (int32_t i = 0; i < set.count; ++i) pods.push_back(set.per_pod);
  }
  std::stable_sort(pods.begin(), pods.end(), [](const ResourceVector& a, const ResourceVector& b) {
    return a.gpu() > b.gpu();
  });
  const uint64_t quota_mark = quota_.usage_mark();
  bool found = true;
  for (const ResourceVector& pod : pods) {
    const NodeIndex best = best_target(s, pod);
    if (!best.valid() || !clear_for_pod(s, best, pod)) {
      found = false;
      break;
    }
  }
  const bool moves = std::any_of(s.takes.begin(), s.takes.end(),
                                 [](const MoveSearch::Take& t) { return t.moved; });
  found = found && moves && quota_.fits(w.team, flavor, total);
  std::optional<VictimChoice> choice;
  if (found) {
    choice.emplace();
    choice->verdict = PreemptionVerdict::kPreempting;
    choice->within_nominal = true;
    for (const MoveSearch::Take& t : s.takes) {
      choice->victims.emplace_back(t.admitted, t.moved ? PreemptionReason::kConsolidation
                                                       : PreemptionReason::kReclaimWithinCohort);
    }
    for (NodeIndex n : capacity_.topology().nodes_of_flavor(flavor)) {
      if (s.targeted[n.value()]) targets->push_back(n);
    }
  }
  while (!s.takes.empty()) s.untake_last();
  quota_.back_to(quota_mark);
  return choice;
}

bool SchedulingCycle::try_consolidate(const PendingWorkload& w, bool* admitted) {
  if (!policy_.consolidation() || team_preempted_[w.team.value()] ||
      policy_.priority_class(w.priority_class).preemption_policy == PreemptionPolicy::kNever) {
    return false;
  }
  if (known_consolidation_failure(w)) return false;
  const ResourceVector& total = facts_[static_cast<size_t>(&w - snapshot_.pending.data())].total;
  for (FlavorIndex f : usable_flavors(w)) {
    if (quota_.would_borrow(w.team, f, total)) continue;
    std::vector<NodeIndex> targets;
    const std::optional<VictimChoice> choice = find_consolidation(w, f, total, &targets);
    if (!choice) continue;
    // Its nodes are held for it until it is admitted (see keep_consolidation_hold()).
    state_changed();
    capacity_changed(f);
    for (NodeIndex n : targets) reserve_node(n, w, snapshot_.now);
    consolidation_holds_[w.id.value()] = std::move(targets);
    for (const auto& [index, reason] : choice->victims) {
      const AdmittedWorkload& victim = snapshot_.admitted[index];
      unavailable_[index] = true;
      plan_.preemptions.push_back(
          {victim.id, w.id, reason, policy_.priority_class(victim.priority_class).grace_period});
    }
    team_preempted_[w.team.value()] = true;
    if (!selector_)
      selector_.emplace(quota_, capacity_, snapshot_.admitted, unavailable_, snapshot_.now);
    *admitted = admit_after_immediate_stop(w, f, *choice);
    return true;
  }
  remember_consolidation_failure(w);
  return false;
}

// A search that failed answers the team's later workloads that ask no more,
// are no more important and exclude the same workload (no loops), until
// something an admission reads changes (the cycle's state epoch): a large
// cluster full of work within nominal would otherwise search again for each.
bool SchedulingCycle::known_consolidation_failure(const PendingWorkload& w) const {
  if (w.pod_sets.size() != 1 || consolidation_failures_.empty()) return false;
  const PodSetRequest& set = w.pod_sets[0];
  return std::any_of(consolidation_failures_[w.team.value()].begin(),
                     consolidation_failures_[w.team.value()].end(),
                     [&](const ConsolidationFailure& f) {
                       return f.epoch == state_epoch_ && w.priority <= f.priority &&
                              f.per_pod.fits_in(set.per_pod) && f.pods <= set.count &&
                              f.preempted_by == w.preempted_by;
                     });
}

void SchedulingCycle::remember_consolidation_failure(const PendingWorkload& w) {
  constexpr size_t kMaxFailuresPerTeam = 8;
  if (w.pod_sets.size() != 1) return;
  if (consolidation_failures_.empty()) consolidation_failures_.resize(policy_.team_count());
  auto& failures = consolidation_failures_[w.team.value()];
  if (failures.size() >= kMaxFailuresPerTeam) failures.erase(failures.begin());
  failures.push_back(
      {state_epoch_, w.priority, w.pod_sets[0].per_pod, w.pod_sets[0].count, w.preempted_by});
}

// While w waits for the victims of its consolidation, the nodes it will take
// stay reserved for it: each a Reservation with no start (a drain, carried to
// the next snapshot by the caller), so that neither new work nor the work it
// moved lands there meanwhile. The hold ends when w is admitted or no longer
// waits for victims.
void SchedulingCycle::keep_consolidation_hold(const PendingWorkload& w, PreemptionVerdict verdict) {
  if (verdict != PreemptionVerdict::kPreempting &&
      verdict != PreemptionVerdict::kWaitingForVictims) {
    return;
  }
  const auto held = consolidation_holds_.find(w.id.value());
  if (held == consolidation_holds_.end()) return;
  for (NodeIndex n : held->second) {
    if (capacity_.reserved_for(n) != w.id) continue;
    plan_.reservations.push_back(
        {w.id, capacity_.topology().flavor_of(n), {n}, Timestamp::infinite_future(), true});
  }
}

}  // namespace allot
