// The explanation half of SchedulingCycle: why each workload is still
// pending, who holds what it needs, and when it may start.
#include <algorithm>

#include "scheduler/scheduling_cycle.h"

namespace allot {
namespace {

// The resource a person thinks in: GPUs when the workload asks for any.
Resource primary_resource(const ResourceVector& total) {
  return total.gpu() > 0 ? Resource::kGpu : Resource::kCpu;
}

}  // namespace

void SchedulingCycle::explain(const PendingWorkload& w, uint32_t pending_index,
                              const Failure& failure, PreemptionVerdict verdict) {
  PendingExplanation e;
  e.workload = w.id;
  e.reason = failure.reason;
  e.preemption = verdict;
  e.flavor = failure.flavor;
  e.queue_position = queues_.position(pending_index);
  if (failure.reason == PendingReason::kQuotaExhausted) {
    e.quota_node = failure.shortfall.binding_node;
    e.fr = failure.shortfall.fr;
    e.requested = failure.shortfall.requested;
    e.available = failure.shortfall.available;
  }
  if (failure.reason == PendingReason::kWaitingForPreemption &&
      victims_stop_by(pending_index) != Timestamp::infinite_future()) {
    e.estimated_start = victims_stop_by(pending_index);
  }
  if (failure.reason == PendingReason::kWaitingForPreemption &&
      verdict == PreemptionVerdict::kPreempting) {
    // Its victims were the last preemptions added (try_preempt), so only
    // the end of the list is read.
    Duration longest;
    for (auto p = plan_.preemptions.rbegin();
         p != plan_.preemptions.rend() && p->beneficiary == w.id; ++p) {
      longest = std::max(longest, p->grace_period);
    }
    e.estimated_start = snapshot_.now + longest;
  }
  // Blocked by nodes; or a gang blocked by quota that running work will give
  // back, or by another gang's reservation. Not an endpoint's guaranteed
  // replica refused for quota: it may not borrow, and the time a reservation
  // counts on is when the quota fits with borrowing.
  if (policy_.consolidation()) keep_consolidation_hold(w, verdict);
  const bool gang = w.pod_sets.size() > 1 || (!w.pod_sets.empty() && w.pod_sets[0].count > 1);
  const bool quota_wait = gang && !w.guaranteed();
  // A workload holding a drain keeps it while it qualifies, else it may take
  // a reservation; one that found no reservation may take a drain
  // (cycle_drains.cc).
  const bool draining = !held_drains_.empty() && held_drains_.contains(w.id.value());
  const bool blocked =
      failure.flavor.valid() && (failure.reason == PendingReason::kNoFittingNodes ||
                                 failure.reason == PendingReason::kQuotaExhausted ||
                                 failure.reason == PendingReason::kHeldForReservation);
  if (draining && blocked) try_drain(w, failure.flavor, verdict, &e);
  if (e.reason != PendingReason::kReserved && failure.flavor.valid() &&
      (failure.reason == PendingReason::kNoFittingNodes ||
       (failure.reason == PendingReason::kQuotaExhausted && quota_wait) ||
       (failure.reason == PendingReason::kHeldForReservation && gang))) {
    try_reserve(w, failure.flavor, &e);
  }
  if (!draining && blocked && e.reason != PendingReason::kReserved) {
    try_drain(w, failure.flavor, verdict, &e);
  }
  if (e.reason == PendingReason::kReserved) {
    reserved_explanation_[w.id.value()] = plan_.explanations.size();
  }
  plan_.explanations.push_back(e);
  explained_index_.push_back(pending_index);
}

// StrictFIFO: the rest of the team's queue waits behind its head, explained
// from its facts (each workload is not read again), or named once.
void SchedulingCycle::explain_blocked_tail(TeamIndex team, uint32_t head) {
  const std::span<const uint32_t> tail = queues_.after_head(team);
  if (!options_.explain_blocked_tails) {
    if (!tail.empty()) {
      plan_.blocked_tails.push_back({team, queues_.position(head), plan_.explanations.size()});
    }
    return;
  }
  for (const uint32_t rest : tail) {
    PendingExplanation e;
    e.workload = facts_[rest].id;
    e.reason = PendingReason::kBlockedByStrictFifo;
    e.flavor = facts_[rest].first_flavor;
    e.queue_position = queues_.position(rest);
    plan_.explanations.push_back(e);
    explained_index_.push_back(rest);
  }
}

void SchedulingCycle::finish_explanations() {
  // Biggest borrower under every quota node, per flavor-resource, computed
  // for a flavor-resource the first time an explanation needs it.
  std::vector<std::vector<std::pair<int32_t, int64_t>>> holders(policy_.fr_count());
  auto holder_of = [&](int32_t quota_node, int32_t fr) {
    auto& best = holders[fr];
    if (best.empty()) {
      best.assign(policy_.quota_node_count(), {-1, 0});
      for (int32_t t = 0; t < policy_.team_count(); ++t) {
        const int64_t borrowed = quota_.usage(t, fr) - quota_.nominal(t, fr);
        for (int32_t node = t; node != kNoParent; node = policy_.parent(node)) {
          if (borrowed > best[node].second) best[node] = {t, borrowed};
        }
      }
    }
    return best[quota_node];
  };
  // Demand queued ahead of each workload in its team (explanations follow queue order).
  std::vector<ResourceVector> ahead(policy_.team_count());
  for (size_t k = 0; k < plan_.explanations.size(); ++k) {
    PendingExplanation& e = plan_.explanations[k];
    if (e.fr >= 0 && e.quota_node >= 0) {
      const auto [team, borrowed] = holder_of(e.quota_node, e.fr);
      e.holder_team = team;
      e.holder_usage = team >= 0 ? quota_.usage(team, e.fr) : 0;
    }
    // A drain's start is unknown (cycle_drains.cc): no estimate from free capacity.
    if (!options_.estimate_start_times || e.estimated_start != Timestamp::infinite_future() ||
        !e.flavor.valid() || e.reason == PendingReason::kReserved) {
      continue;
    }
    const PendingFacts& facts = facts_[explained_index_[k]];
    const ResourceVector& total = facts.total;
    const Resource r = primary_resource(total);
    ResourceVector& queued = ahead[facts.team.value()];
    int64_t need = queued[r] + total[r];
    if (e.reason == PendingReason::kQuotaExhausted && e.fr >= 0 &&
        e.fr % kResourceCount == static_cast<int32_t>(r)) {
      need -= e.available;
    } else {
      need -= capacity_.flavor_free(e.flavor)[r];
    }
    queued += total;
    if (e.reason == PendingReason::kExceedsCapacity) continue;
    e.estimated_start =
        need <= 0 ? snapshot_.now + policy_.cycle() : timeline().when_released(e.flavor, r, need);
  }
}

}  // namespace allot
