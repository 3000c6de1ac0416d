// The drain half of SchedulingCycle: a node held for a whole-node workload of
// a team within its nominal quota that no reclaim can serve, because every
// node holds some work that may not be reclaimed (work of teams within their
// nominal). The node nearest to clearable (fewest GPUs of such work; ties by
// node order) takes no new work from then on; when that work has ended, the
// workload's reclaim clears the node's borrowers and it is admitted there.
//
// In the plan a drain is a Reservation of one node whose start is unknown
// (starts_at is the infinite future): carried to the next snapshot, the node
// is reserved from the snapshot's time, so that only its workload may use it
// (no backfill: nothing can be known to end before an unknown start). One
// node per workload; a team drains at most what it is owed (its usage plus
// the workloads holding drains stays within its nominal), most important
// workloads first (the cycle's order). A held drain moves to a node strictly
// nearer to clear when one appears (the work within nominal there may end long
// after another node's: no runtimes are known). The drain ends when its
// workload is admitted or leaves, or no longer qualifies.
#include <algorithm>

#include "scheduler/scheduling_cycle.h"

namespace allot {

// Before the handovers are kept: a promise onto a drained node is withdrawn.
void SchedulingCycle::apply_held_drains() {
  for (const HeldReservation& r : snapshot_.reservations) {
    if (r.starts_at != Timestamp::infinite_future() || r.nodes.size() != 1) continue;
    const std::optional<uint32_t> index = pending_index_.find(r.workload);
    const NodeIndex node = r.nodes[0];
    if (!index || !node.valid() || node.value() >= static_cast<uint32_t>(policy_.node_count())) {
      continue;
    }
    holds_reservation_.insert(r.workload.value());
    reserve_node(node, snapshot_.pending[*index], snapshot_.now);
    held_drains_.emplace(r.workload.value(), node);
    // A consolidation's hold: one of the nodes of its workload (keep_consolidation_hold()).
    if (r.consolidation) consolidation_holds_[r.workload.value()].push_back(node);
  }
}

// Every pod of w needs a whole node of the flavor (its GPUs, all of them).
bool SchedulingCycle::whole_node_work(const PendingWorkload& w, FlavorIndex flavor) const {
  const int64_t node_gpus = flavor_node_gpus_[flavor.value()];
  if (node_gpus == 0 || w.pod_sets.empty()) return false;
  return std::all_of(w.pod_sets.begin(), w.pod_sets.end(), [&](const PodSetRequest& set) {
    return set.count > 0 && set.per_pod.gpu() == node_gpus;
  });
}

NodeIndex SchedulingCycle::nearest_to_clear(const PendingWorkload& w, FlavorIndex flavor) {
  const ResourceVector& per_pod = w.pod_sets[0].per_pod;
  NodeIndex best;
  int64_t best_anchored = INT64_MAX;
  for (int32_t n = 0; n < policy_.node_count(); ++n) {
    const NodeIndex node(static_cast<uint32_t>(n));
    if (policy_.node(node).flavor != flavor || !capacity_.schedulable(node) ||
        !per_pod.fits_in(policy_.node(node).node.capacity)) {
      continue;
    }
    if (capacity_.reserved(node) && capacity_.reserved_for(node) != w.id) continue;
    const int64_t anchored = tenancy_.anchored_gpus(node);
    if (anchored < best_anchored && clearable_for(w, node)) {
      best_anchored = anchored;
      best = node;
    }
  }
  return best;
}

// Running work of a team above its nominal (NodeTenancy's view) with no
// declared end, by node; this cycle's borrowing admissions are added as
// later drains look.
void SchedulingCycle::note_open_borrowers() {
  if (open_borrowers_.empty()) {
    open_borrowers_.resize(policy_.node_count());
    for (uint32_t i = 0; i < snapshot_.admitted.size(); ++i) {
      const AdmittedWorkload& a = snapshot_.admitted[i];
      if (a.terminating || tenancy_.anchored(i) || a.max_runtime != Duration::max()) continue;
      for (const PodSetAssignment& set : a.assignment) {
        for (const PodPlacement& pod : set.pods) {
          if (pod.node.value() >= open_borrowers_.size()) continue;
          open_borrowers_[pod.node.value()].push_back({i, a.team, a.priority, a.guaranteed()});
        }
      }
    }
  }
  for (; open_borrowers_admissions_ < plan_.admissions.size(); ++open_borrowers_admissions_) {
    const Admission& a = plan_.admissions[open_borrowers_admissions_];
    const std::optional<uint32_t> index = pending_index_.find(a.workload);
    if (!a.borrowing || !index) continue;
    const PendingWorkload& p = snapshot_.pending[*index];
    if (p.max_runtime != Duration::max()) continue;
    for (const PodSetAssignment& set : a.assignment) {
      for (const PodPlacement& pod : set.pods) {
        if (pod.node.value() >= open_borrowers_.size()) continue;
        open_borrowers_[pod.node.value()].push_back(
            {UINT32_MAX, p.team, p.priority, p.guaranteed()});
      }
    }
  }
}

bool SchedulingCycle::may_reclaim(const PendingWorkload& w, TeamIndex team, int32_t priority,
                                  bool guaranteed) const {
  const TeamPreemption& rules = policy_.team(w.team).preemption;
  const auto root = [&](TeamIndex t) {
    int32_t q = policy_.team(t).quota_node;
    while (policy_.parent(q) != kNoParent) q = policy_.parent(q);
    return q;
  };
  const bool lower = priority < w.priority;
  if (team == w.team) return rules.within_team == WithinTeamPolicy::kLowerPriority && lower;
  return !guaranteed && root(team) == root(w.team) &&
         (rules.reclaim_within_cohort == ReclaimPolicy::kAny ||
          (rules.reclaim_within_cohort == ReclaimPolicy::kLowerPriority && lower));
}

bool SchedulingCycle::clearable_for(const PendingWorkload& w, NodeIndex node) {
  note_open_borrowers();
  for (const OpenBorrower& b : open_borrowers_[node.value()]) {
    if (b.admitted != UINT32_MAX && unavailable_[b.admitted]) continue;  // stopping
    if (!may_reclaim(w, b.team, b.priority, b.guaranteed)) return false;
  }
  return true;
}

bool SchedulingCycle::try_drain(const PendingWorkload& w, FlavorIndex flavor,
                                PreemptionVerdict verdict, PendingExplanation* explanation) {
  // Not while a reclaim is under way for it, nor for a workload that may not
  // preempt at all: a drained node is cleared by its reclaim.
  const bool reclaim_possible = verdict != PreemptionVerdict::kPreempting &&
                                verdict != PreemptionVerdict::kWaitingForVictims &&
                                verdict != PreemptionVerdict::kNotAllowed;
  // Nor for one held back by a reserved gang's quota: it waits for that gang's
  // start, which a drain cannot bring nearer, and a drain taken for it would
  // keep a node from the reservations planned after it.
  if (!options_.drain_for_whole_node_work || w.guaranteed() || !reclaim_possible ||
      explanation->reason == PendingReason::kHeldForReservation || !whole_node_work(w, flavor)) {
    return false;
  }
  if (drained_.empty())
    drained_.resize(static_cast<size_t>(policy_.team_count()) * policy_.flavor_count());
  ResourceVector& drained =
      drained_[static_cast<size_t>(w.team.value()) * policy_.flavor_count() + flavor.value()];
  const ResourceVector& total = facts_[static_cast<size_t>(&w - snapshot_.pending.data())].total;
  if (quota_.would_borrow(w.team, flavor, drained + total)) return false;
  NodeIndex node;
  const auto held = held_drains_.find(w.id.value());
  if (held != held_drains_.end() && policy_.node(held->second).flavor == flavor &&
      capacity_.schedulable(held->second) && capacity_.reserved_for(held->second) == w.id &&
      clearable_for(w, held->second)) {
    node = held->second;
  }
  // A held drain moves to a node strictly nearer to clear (fewer GPUs of work
  // within nominal): the work there may end long after another node's.
  if (!node.valid() || tenancy_.anchored_gpus(node) > 0) {
    const NodeIndex nearest = nearest_to_clear(w, flavor);
    if (nearest.valid() &&
        (!node.valid() || tenancy_.anchored_gpus(nearest) < tenancy_.anchored_gpus(node))) {
      if (node.valid()) capacity_.unreserve(node);
      node = nearest;
    }
  }
  if (!node.valid()) return false;
  state_changed();
  capacity_changed(flavor);
  reserve_node(node, w, snapshot_.now);
  drained += total;
  explanation->reason = PendingReason::kReserved;
  explanation->estimated_start = Timestamp::infinite_future();
  reservation_priorities_[flavor.value()].insert(w.priority);
  plan_.reservations.push_back({w.id, flavor, {node}, Timestamp::infinite_future()});
  return true;
}

}  // namespace allot
