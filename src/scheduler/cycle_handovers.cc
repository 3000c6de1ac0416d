// SchedulingCycle's handovers (docs/slurm.md *Turnover* (c)): capacity that
// a reclaim's victims will free, promised to the reclaiming workload, so that
// its backend may hold its job ready to start when they end.
//
// - Offered when a cycle chooses victims for a pending workload W that did not
//   start at once (every victim has a grace period): W has one pod set of one
//   pod, and one of its victims J, in the flavor W preempted in, runs only on
//   one node that holds at least W's pod (resources and GPUs) for J. The
//   promise: W's pod on that node, on the lowest of J's GPUs it needs, once
//   every victim chosen for W has ended (they are its `after`).
// - Kept while W is pending, each victim still admitted is stopping for W, and
//   the node stays schedulable. W holds nothing meanwhile: its victims hold
//   the capacity, and the quota they do not hold is held for W as for any
//   beneficiary (inflight_preemptions.h).
// - Admitted first, before anything else is planned, in the cycle that sees
//   every victim gone: at exactly its assignment, if quota and the node still
//   allow it. A promise never outlives its victims: one that cannot be
//   admitted then is withdrawn, as is one whose workload is no longer pending
//   and not admitted, or a victim no longer stopping for W, or its node gone
//   unschedulable, or W no longer the head of a StrictFIFO team's queue; W then waits in its queue
//   as any other. A waiting W that fits elsewhere meanwhile (capacity freed by other work) is
//   admitted there, and its promise withdrawn (settle_handovers(), at the end of the cycle).
// No capacity is counted twice: a promise holds nothing while its victims
// hold the capacity, and takes it only once they are gone, before any other
// admission of that cycle.
// A turnover's promise (cycle_turnovers.cc) is admitted or withdrawn here
// alike, but its `after` is one running workload of W's own team, which must
// not be stopping; one still waiting is judged again at the end of the cycle.
#include <bit>
#include <unordered_map>
#include <unordered_set>

#include "scheduler/handover_placement.h"
#include "scheduler/scheduling_cycle.h"

namespace allot {

void SchedulingCycle::keep_handovers() {
  if (snapshot_.handovers.empty()) return;
  std::unordered_map<uint64_t, uint32_t> admitted;
  for (uint32_t i = 0; i < snapshot_.admitted.size(); ++i) {
    admitted.emplace(snapshot_.admitted[i].id.value(), i);
  }
  for (const Handover& promise : snapshot_.handovers) {
    const std::optional<uint32_t> index = pending_index_.find(promise.workload);
    if (!index) {
      // Admitted (by this promise in an earlier cycle, or otherwise): nothing held ready is
      // left to take back; gone: what is held ready is taken back.
      if (!admitted.contains(promise.workload.value())) {
        plan_.withdrawn_handovers.push_back(promise.workload);
      }
      continue;
    }
    bool waiting = false;
    bool broken = false;
    for (const WorkloadId victim : promise.after) {
      const auto found = admitted.find(victim.value());
      if (found == admitted.end()) continue;  // ended
      const AdmittedWorkload& v = snapshot_.admitted[found->second];
      waiting = true;
      // A reclaim's victim must still be stopping for W; a turnover's running
      // workload must still run: stopping, its capacity goes where the stop says.
      broken = broken || (promise.kind == HandoverKind::kReclaim
                              ? !v.terminating || v.preempted_for != promise.workload
                              : v.terminating);
    }
    for (const PodSetAssignment& set : promise.assignment) {
      for (const PodPlacement& pod : set.pods) broken = broken || !capacity_.schedulable(pod.node);
    }
    // StrictFIFO: admitted first only at the head of its team's queue (work
    // requeued at its original place may have come before it since).
    const PendingWorkload& w = snapshot_.pending[*index];
    broken = broken || (policy_.team(w.team).queueing == QueueingStrategy::kStrictFifo &&
                        queues_.head(w.team) != *index);
    if (!broken && waiting) {
      // A turnover's promise is judged again at the end of the cycle (offer_turnovers()).
      (promise.kind == HandoverKind::kTurnover ? kept_turnovers_ : plan_.handovers)
          .push_back(promise);
    } else if (broken || !admit_promised(w, promise)) {
      plan_.withdrawn_handovers.push_back(promise.workload);
      if (promise.kind == HandoverKind::kTurnover) refused_turnovers_.insert(w.id.value());
    }
  }
}

bool SchedulingCycle::admit_promised(const PendingWorkload& w, const Handover& promise) {
  if (promise.assignment.size() != w.pod_sets.size()) return false;
  std::vector<int32_t> counts;
  ResourceVector total;
  for (size_t s = 0; s < w.pod_sets.size(); ++s) {
    const PodSetAssignment& set = promise.assignment[s];
    counts.push_back(set.count);
    total += w.pod_sets[s].per_pod * set.count;
    for (const PodPlacement& pod : set.pods) {
      const bool free_gpus = (capacity_.free_gpus(pod.node) & pod.gpu_mask) == pod.gpu_mask;
      if (!capacity_.fits(pod.node, w.pod_sets[s].per_pod) || !free_gpus ||
          std::popcount(pod.gpu_mask) != w.pod_sets[s].per_pod.gpu() ||
          !capacity_.usable_by(pod.node, w.id, finish_by(w))) {
        return false;
      }
    }
  }
  if (!quota_.fits(w.team, promise.flavor, total)) return false;
  admit(w, promise.flavor, counts, promise.assignment);
  admitted_by_promise_.insert(w.id.value());
  return true;
}

void SchedulingCycle::settle_handovers() {
  if (plan_.handovers.empty()) return;
  std::unordered_set<uint64_t> admitted;
  for (const Admission& a : plan_.admissions) admitted.insert(a.workload.value());
  std::erase_if(plan_.handovers, [&](const Handover& promise) {
    if (!admitted.contains(promise.workload.value())) return false;
    plan_.withdrawn_handovers.push_back(promise.workload);  // it started elsewhere first
    return true;
  });
}

void SchedulingCycle::offer_handover(const PendingWorkload& w, FlavorIndex flavor,
                                     const VictimChoice& choice) {
  if (w.pod_sets.size() != 1 || w.pod_sets[0].count != 1) return;
  const ResourceVector& need = w.pod_sets[0].per_pod;
  Handover promise{w.id, {}, flavor, {}};
  for (const auto& [index, reason] : choice.victims) {
    const AdmittedWorkload& victim = snapshot_.admitted[index];
    // One without a grace period stops at once: nothing to wait for.
    if (policy_.priority_class(victim.priority_class).grace_period.ms() <= 0) return;
    promise.after.push_back(victim.id);
    if (!promise.assignment.empty() || victim.flavor != flavor) continue;
    const std::optional<OnOneNode> place = on_one_node(victim);
    if (!place) continue;
    std::optional<PodSetAssignment> pod = promised_pod(need, *place);
    if (pod) promise.assignment.push_back(std::move(*pod));
  }
  if (!promise.assignment.empty()) plan_.handovers.push_back(std::move(promise));
}

}  // namespace allot
