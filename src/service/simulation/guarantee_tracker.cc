#include "service/simulation/guarantee_tracker.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "base/check.h"
#include "scheduler/team_queues.h"

namespace allot {
namespace {

int64_t request_of(const PendingWorkload& workload, Resource primary) {
  int64_t total = 0;
  for (const PodSetRequest& pod_set : workload.pod_sets) {
    total += pod_set.per_pod[primary] * pod_set.count;
  }
  return total;
}

// What the plan says of the pending work, by id. Served: admitted, a planned
// preemption's beneficiary, or explained as preempting or waiting for
// victims. Not judged: held back by its own team's StrictFIFO head, explained
// one by one (kBlockedByStrictFifo) or named as a blocked tail (judged(team):
// how many of the team's queue are judged at most). Only the queues of owed
// teams are read, each up to its tail, so a deep tail named once costs nothing.
class PlanMarks {
 public:
  PlanMarks(const Plan& plan, size_t teams) : judged_(teams, SIZE_MAX) {
    for (const Admission& admission : plan.admissions) served_.push_back(admission.workload);
    for (const Preemption& preemption : plan.preemptions) served_.push_back(preemption.beneficiary);
    for (const PendingExplanation& explanation : plan.explanations) {
      switch (explanation.preemption) {
        case PreemptionVerdict::kPreempting:
        case PreemptionVerdict::kWaitingForVictims:
        case PreemptionVerdict::kDeferred: served_.push_back(explanation.workload); break;
        default: break;
      }
      if (explanation.reason == PendingReason::kBlockedByStrictFifo) {
        not_judged_.push_back(explanation.workload);
      }
    }
    std::sort(served_.begin(), served_.end());
    std::sort(not_judged_.begin(), not_judged_.end());
    for (const BlockedTail& tail : plan.blocked_tails) {
      ALLOT_CHECK(tail.team.value() < teams);
      judged_[tail.team.value()] = static_cast<size_t>(tail.head_position);
    }
  }
  [[nodiscard]] bool served(WorkloadId id) const {
    return std::binary_search(served_.begin(), served_.end(), id);
  }
  [[nodiscard]] bool not_judged(WorkloadId id) const {
    return std::binary_search(not_judged_.begin(), not_judged_.end(), id);
  }
  [[nodiscard]] size_t judged(size_t team) const { return judged_[team]; }

 private:
  std::vector<WorkloadId> served_;
  std::vector<WorkloadId> not_judged_;
  std::vector<size_t> judged_;  // per team
};

// `queue`: all of the team's pending work, in queue order.
GuaranteeVerdict judge_team(const std::vector<uint32_t>& queue, size_t judged, int64_t remaining,
                            const Snapshot& snapshot, const PlanMarks& marks, Resource primary) {
  for (size_t k = 0; k < queue.size() && k < judged; ++k) {
    const PendingWorkload& w = snapshot.pending[queue[k]];
    const int64_t request = request_of(w, primary);
    if (marks.served(w.id)) {
      remaining = std::max<int64_t>(0, remaining - request);
    } else if (request <= remaining && !marks.not_judged(w.id)) {
      return GuaranteeVerdict::kViolated;
    }
  }
  return GuaranteeVerdict::kCompliant;
}

// `queue_of(team)`: the team's pending work (indices) in queue order.
template <typename QueueOf>
std::vector<GuaranteeVerdict> judge_queues(const Snapshot& snapshot, const Plan& plan,
                                           const QueueOf& queue_of,
                                           const std::vector<int64_t>& nominal, Resource primary) {
  std::vector<int64_t> usage(nominal.size(), 0);
  for (const AdmittedWorkload& admitted : snapshot.admitted) {
    ALLOT_CHECK(admitted.team.value() < usage.size());
    usage[admitted.team.value()] += admitted.usage()[primary];
  }
  const PlanMarks marks(plan, nominal.size());
  std::vector<GuaranteeVerdict> verdicts(nominal.size(), GuaranteeVerdict::kNotOwed);
  for (size_t team = 0; team < nominal.size(); ++team) {
    const std::vector<uint32_t>& queue = queue_of(team);
    // Owed: it has pending work and is below its nominal.
    if (queue.empty() || usage[team] >= nominal[team]) continue;
    verdicts[team] = judge_team(queue, marks.judged(team), nominal[team] - usage[team], snapshot,
                                marks, primary);
  }
  return verdicts;
}

}  // namespace

std::vector<GuaranteeVerdict> judge_guarantees(const Snapshot& snapshot, const Plan& plan,
                                               const std::vector<int64_t>& nominal,
                                               Resource primary) {
  std::vector<std::vector<uint32_t>> queues(nominal.size());
  for (uint32_t i = 0; i < snapshot.pending.size(); ++i) {
    const size_t team = snapshot.pending[i].team.value();
    ALLOT_CHECK(team < queues.size());
    queues[team].push_back(i);
  }
  const auto before = [&](uint32_t a, uint32_t b) {
    return queue_before(snapshot.pending[a], snapshot.pending[b]);
  };
  for (std::vector<uint32_t>& queue : queues) std::sort(queue.begin(), queue.end(), before);
  return judge_queues(
      snapshot, plan, [&](size_t team) -> const std::vector<uint32_t>& { return queues[team]; },
      nominal, primary);
}

std::vector<GuaranteeVerdict> judge_guarantees(const Snapshot& snapshot, const Plan& plan,
                                               const PendingQueues& queues,
                                               const std::vector<int64_t>& nominal,
                                               Resource primary) {
  ALLOT_CHECK(queues.facts().size() == snapshot.pending.size());
  return judge_queues(
      snapshot, plan,
      [&](size_t team) -> const std::vector<uint32_t>& {
        return queues.queue(TeamIndex(static_cast<uint32_t>(team)));
      },
      nominal, primary);
}

GuaranteeTracker::GuaranteeTracker(std::vector<int64_t> nominal, Resource primary)
    : nominal_(std::move(nominal)), primary_(primary), counts_(nominal_.size()) {}

void GuaranteeTracker::observe(const Snapshot& snapshot, const Plan& plan,
                               const PendingQueues* queues) {
  last_ = queues != nullptr ? judge_guarantees(snapshot, plan, *queues, nominal_, primary_)
                            : judge_guarantees(snapshot, plan, nominal_, primary_);
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
