// SchedulingCycle's preemption: for a pending workload that did not fit,
// victims chosen by the VictimSelector (Kueue's rules, victim_selector.h) in
// each flavor it may use, recorded in the plan with their grace periods; one
// preempting workload per team a cycle. Victims without a grace period stop
// as the plan is carried out, so the preemptor is admitted in their place in
// the same cycle; otherwise a handover may be offered (cycle_handovers.cc).
// A search that found no victims is remembered per team and answers later
// workloads of the team that could not do better, until the next admission.
#include <optional>
#include <vector>

#include "scheduler/scheduling_cycle.h"
#include "scheduler/victim_selector.h"

namespace allot {

PreemptionVerdict SchedulingCycle::try_preempt(const PendingWorkload& w, bool* admitted) {
  if (policy_.priority_class(w.priority_class).preemption_policy == PreemptionPolicy::kNever) {
    return PreemptionVerdict::kNotAllowed;
  }
  if (team_preempted_[w.team.value()]) return PreemptionVerdict::kDeferred;
  if (const auto known = known_preemption_failure(w)) return *known;
  if (!selector_)
    selector_.emplace(quota_, capacity_, snapshot_.admitted, unavailable_, snapshot_.now);
  VictimSelector& selector = *selector_;
  PreemptionVerdict verdict = PreemptionVerdict::kNotAllowed;
  const std::vector<int32_t> counts = full_counts(w);
  const ResourceVector& total = facts_[static_cast<size_t>(&w - snapshot_.pending.data())].total;
  for (FlavorIndex f : usable_flavors(w)) {
    VictimChoice choice = selector.find(w, f, total, counts);
    if (choice.verdict == PreemptionVerdict::kPreempting) {
      for (const auto& [index, reason] : choice.victims) {
        const AdmittedWorkload& victim = snapshot_.admitted[index];
        unavailable_[index] = true;
        plan_.preemptions.push_back(
            {victim.id, w.id, reason, policy_.priority_class(victim.priority_class).grace_period});
      }
      team_preempted_[w.team.value()] = true;
      *admitted = admit_after_immediate_stop(w, f, choice);
      if (!*admitted) offer_handover(w, f, choice);
      return verdict = PreemptionVerdict::kPreempting;
    }
    // Keep the most telling refusal: insufficient > too young > none > not allowed.
    if (static_cast<int>(choice.verdict) > static_cast<int>(verdict) ||
        verdict == PreemptionVerdict::kNotAllowed) {
      verdict = choice.verdict;
    }
  }
  remember_preemption_failure(w, verdict);
  return verdict;
}

// Victims without a grace period stop as the plan is carried out (before its
// admissions), so the preemptor can take their place in the same cycle.
bool SchedulingCycle::admit_after_immediate_stop(const PendingWorkload& w, FlavorIndex flavor,
                                                 const VictimChoice& choice) {
  for (const auto& [index, reason] : choice.victims) {
    const auto& victim = snapshot_.admitted[index];
    if (policy_.priority_class(victim.priority_class).grace_period.ms() > 0) return false;
  }
  // The victims ran in `flavor` (a search's candidates all do).
  for (const auto& [index, reason] : choice.victims) {
    selector_->release(index);
    const AdmittedWorkload& victim = snapshot_.admitted[index];
    tenancy_.stopped(index, victim);
    // What it held is no longer burst usage: a guaranteed replica counts it again.
    if (victim.replica_role == ReplicaRole::kBurst) {
      burst_usage_.remove(victim.team, victim.flavor, victim.usage());
    }
  }
  state_changed();
  capacity_changed(flavor);
  // Capacity grew: what the memos learned this cycle no longer holds.
  for (auto& shapes : unplaceable_) shapes.clear();
  for (auto& failed : failed_reservations_) failed.clear();
  Failure ignored;
  return try_flavor(w, flavor, &ignored);
}

// A workload that found no victims makes the same search fail for any later
// workload of its team that is no more important, no smaller and pinned
// alike, as long as nothing was admitted in between (an admission can make
// another team a borrower, and so a candidate). Not for one that holds a
// reservation: its search may use its reserved nodes, which the earlier
// workload's could not (a drained node whose work within nominal has ended
// is cleared by its own workload's reclaim).
std::optional<PreemptionVerdict> SchedulingCycle::known_preemption_failure(
    const PendingWorkload& w) const {
  if (w.pod_sets.size() != 1 ||
      (!holds_reservation_.empty() && holds_reservation_.contains(w.id.value()))) {
    return std::nullopt;
  }
  const PendingFacts& facts = facts_[static_cast<size_t>(&w - snapshot_.pending.data())];
  for (const PreemptionFailure& f : preemption_failures_[w.team.value()]) {
    if (f.admissions_seen == plan_.admissions.size() && w.priority <= f.priority &&
        f.per_pod.fits_in(w.pod_sets[0].per_pod) && f.pods <= w.pod_sets[0].count &&
        f.pinned == facts.pinned && (!f.preempted_by.valid() || f.preempted_by == w.preempted_by) &&
        (!f.guaranteed || w.guaranteed())) {
      return f.verdict;
    }
  }
  return std::nullopt;
}

void SchedulingCycle::remember_preemption_failure(const PendingWorkload& w,
                                                  PreemptionVerdict verdict) {
  constexpr size_t kMaxFailuresPerTeam = 8;
  auto& failures = preemption_failures_[w.team.value()];
  if (w.pod_sets.size() != 1) return;
  if (failures.size() >= kMaxFailuresPerTeam) failures.erase(failures.begin());
  failures.push_back({w.priority, w.pod_sets[0].per_pod, w.pod_sets[0].count,
                      facts_[static_cast<size_t>(&w - snapshot_.pending.data())].pinned,
                      w.preempted_by, plan_.admissions.size(), verdict, w.guaranteed()});
}

}  // namespace allot
