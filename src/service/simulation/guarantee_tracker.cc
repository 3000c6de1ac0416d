#include "service/simulation/guarantee_tracker.h"

#include <algorithm>
#include <utility>

#include "base/check.h"

namespace allot {
namespace {

int64_t request_of(const PendingWorkload& workload, Resource primary) {
  int64_t total = 0;
  for (const PodSetRequest& pod_set : workload.pod_sets) {
    total += pod_set.per_pod[primary] * pod_set.count;
  }
  return total;
}

bool queue_order(const PendingWorkload* a, const PendingWorkload* b) {
  if (a->priority != b->priority) {
    return a->priority > b->priority;
  }
  if (a->queued_at != b->queued_at) {
    return a->queued_at < b->queued_at;
  }
  return a->id < b->id;
}

// Sorted workload ids: a plan names every blocked workload of a StrictFIFO
// team each cycle, so building these must not allocate per id (a hash set's
// nodes were a third of a deep-backlog replay).
class IdSet {
 public:
  void reserve(size_t size) { ids_.reserve(size); }
  void add(uint64_t id) { ids_.push_back(id); }
  void seal() { std::sort(ids_.begin(), ids_.end()); }
  [[nodiscard]] bool contains(uint64_t id) const {
    return std::binary_search(ids_.begin(), ids_.end(), id);
  }

 private:
  std::vector<uint64_t> ids_;
};

// Workloads the plan serves, and those the guarantee does not judge.
struct PlanOutcome {
  IdSet served;
  IdSet not_judged;
};

PlanOutcome outcome_of(const Plan& plan) {
  PlanOutcome outcome;
  outcome.served.reserve(plan.admissions.size() + plan.preemptions.size());
  for (const Admission& admission : plan.admissions) {
    outcome.served.add(admission.workload.value());
  }
  for (const Preemption& preemption : plan.preemptions) {
    outcome.served.add(preemption.beneficiary.value());
  }
  outcome.not_judged.reserve(plan.explanations.size());
  for (const PendingExplanation& explanation : plan.explanations) {
    switch (explanation.preemption) {
      case PreemptionVerdict::kPreempting:
      case PreemptionVerdict::kWaitingForVictims:
      case PreemptionVerdict::kDeferred: outcome.served.add(explanation.workload.value()); break;
      default: break;
    }
    if (explanation.reason == PendingReason::kBlockedByStrictFifo) {
      outcome.not_judged.add(explanation.workload.value());
    }
  }
  outcome.served.seal();
  outcome.not_judged.seal();
  return outcome;
}

GuaranteeVerdict judge_team(std::vector<const PendingWorkload*>& queue, int64_t remaining,
                            const PlanOutcome& outcome, Resource primary) {
  std::sort(queue.begin(), queue.end(), queue_order);
  for (const PendingWorkload* workload : queue) {
    const int64_t request = request_of(*workload, primary);
    if (outcome.served.contains(workload->id.value())) {
      remaining = std::max<int64_t>(0, remaining - request);
    } else if (request <= remaining && !outcome.not_judged.contains(workload->id.value())) {
      return GuaranteeVerdict::kViolated;
    }
  }
  return GuaranteeVerdict::kCompliant;
}

}  // namespace

std::vector<GuaranteeVerdict> judge_guarantees(const Snapshot& snapshot, const Plan& plan,
                                               const std::vector<int64_t>& nominal,
                                               Resource primary) {
  std::vector<int64_t> usage(nominal.size(), 0);
  for (const AdmittedWorkload& admitted : snapshot.admitted) {
    ALLOT_CHECK(admitted.team.value() < usage.size());
    usage[admitted.team.value()] += admitted.usage()[primary];
  }
  std::vector<std::vector<const PendingWorkload*>> queues(nominal.size());
  for (const PendingWorkload& pending : snapshot.pending) {
    ALLOT_CHECK(pending.team.value() < queues.size());
    queues[pending.team.value()].push_back(&pending);
  }
  const PlanOutcome outcome = outcome_of(plan);
  std::vector<GuaranteeVerdict> verdicts(nominal.size(), GuaranteeVerdict::kNotOwed);
  for (size_t team = 0; team < nominal.size(); ++team) {
    if (!queues[team].empty() && usage[team] < nominal[team]) {
      verdicts[team] = judge_team(queues[team], nominal[team] - usage[team], outcome, primary);
    }
  }
  return verdicts;
}

GuaranteeTracker::GuaranteeTracker(std::vector<int64_t> nominal, Resource primary)
    : nominal_(std::move(nominal)), primary_(primary), counts_(nominal_.size()) {}

void GuaranteeTracker::observe(const Snapshot& snapshot, const Plan& plan) {
  last_ = judge_guarantees(snapshot, plan, nominal_, primary_);
}

void GuaranteeTracker::count(int64_t grid_cycles) {
  ALLOT_CHECK(grid_cycles >= 1);
  ALLOT_CHECK(last_.size() == counts_.size());
  for (size_t team = 0; team < last_.size(); ++team) {
    if (last_[team] == GuaranteeVerdict::kNotOwed) {
      continue;
    }
    counts_[team].owed += grid_cycles;
    if (last_[team] == GuaranteeVerdict::kCompliant) {
      counts_[team].compliant += grid_cycles;
    }
  }
  last_.clear();
}

}  // namespace allot
