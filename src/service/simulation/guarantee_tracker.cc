#include "service/simulation/guarantee_tracker.h"

#include <algorithm>
#include <cstdint>
#include <utility>

#include "base/check.h"
#include "scheduler/team_queues.h"
#include "service/simulation/bounded_reclaim.h"

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

// `queue`: all of the team's pending work, in queue order. Returns the
// position of the first owed workload that was not served, SIZE_MAX if none.
size_t first_unserved(const std::vector<uint32_t>& queue, size_t judged, int64_t remaining,
                      const Snapshot& snapshot, const PlanMarks& marks, Resource primary) {
  for (size_t k = 0; k < queue.size() && k < judged; ++k) {
    const PendingWorkload& w = snapshot.pending[queue[k]];
    const int64_t request = request_of(w, primary);
    if (marks.served(w.id)) {
      remaining = std::max<int64_t>(0, remaining - request);
    } else if (request <= remaining && !marks.not_judged(w.id)) {
      return k;
    }
  }
  return SIZE_MAX;
}

std::vector<int64_t> usage_by_team(const Snapshot& snapshot, size_t teams, Resource primary) {
  std::vector<int64_t> usage(teams, 0);
  for (const AdmittedWorkload& admitted : snapshot.admitted) {
    ALLOT_CHECK(admitted.team.value() < usage.size());
    usage[admitted.team.value()] += admitted.usage()[primary];
  }
  return usage;
}

// `queue_of(team)`: the team's pending work (indices) in queue order.
template <typename QueueOf>
std::vector<GuaranteeVerdict> judge_queues(const Snapshot& snapshot, const Plan& plan,
                                           const QueueOf& queue_of,
                                           const std::vector<int64_t>& nominal, Resource primary) {
  const std::vector<int64_t> usage = usage_by_team(snapshot, nominal.size(), primary);
  const PlanMarks marks(plan, nominal.size());
  std::vector<GuaranteeVerdict> verdicts(nominal.size(), GuaranteeVerdict::kNotOwed);
  for (size_t team = 0; team < nominal.size(); ++team) {
    const std::vector<uint32_t>& queue = queue_of(team);
    // Owed: it has pending work and is below its nominal.
    if (queue.empty() || usage[team] >= nominal[team]) continue;
    const size_t unserved = first_unserved(queue, marks.judged(team), nominal[team] - usage[team],
                                           snapshot, marks, primary);
    verdicts[team] =
        unserved == SIZE_MAX ? GuaranteeVerdict::kCompliant : GuaranteeVerdict::kViolated;
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

bool fits_without_borrowers(const AfterPlan& after, std::vector<int64_t> free,
                            const PendingWorkload& workload, const std::vector<int64_t>& nominal,
                            const std::vector<GuaranteeNode>& nodes,
                            const std::vector<FlavorIndex>& flavors, Resource primary) {
  for (const HeldWork& work : after.work) {
    if (after.usage[work.team] > nominal[work.team]) continue;  // a borrower's: gone
    for (const auto& [n, amount] : work.pods) {
      if (n < free.size() && free[n] >= 0) free[n] = std::max<int64_t>(0, free[n] - amount);
    }
  }
  struct Pod {
    int64_t amount;
    FlavorIndex flavor;
  };
  std::vector<Pod> pods;
  for (const PodSetRequest& set : workload.pod_sets) {
    for (int32_t i = 0; i < set.count; ++i)
      pods.push_back({set.per_pod[primary], set.required_flavor});
  }
  std::stable_sort(pods.begin(), pods.end(),
                   [](const Pod& a, const Pod& b) { return a.amount > b.amount; });
  for (const Pod& pod : pods) {
    size_t best = SIZE_MAX;
    for (size_t n = 0; n < nodes.size(); ++n) {
      if (free[n] < pod.amount) continue;
      if (pod.flavor.valid()
              ? nodes[n].flavor != pod.flavor
              : std::find(flavors.begin(), flavors.end(), nodes[n].flavor) == flavors.end()) {
        continue;
      }
      if (best == SIZE_MAX || free[n] < free[best]) best = n;
    }
    if (best == SIZE_MAX) return false;
    free[best] -= pod.amount;
  }
  return true;
}

std::vector<ViolationClass> classify_violations(
    const Snapshot& snapshot, const Plan& plan, const PendingQueues& queues,
    const std::vector<GuaranteeVerdict>& verdicts, const std::vector<int64_t>& nominal,
    const std::vector<GuaranteeNode>& nodes,
    const std::vector<std::vector<FlavorIndex>>& team_flavors, Resource primary) {
  std::vector<ViolationClass> classes(verdicts.size(), ViolationClass::kNone);
  if (std::find(verdicts.begin(), verdicts.end(), GuaranteeVerdict::kViolated) == verdicts.end()) {
    return classes;
  }
  const std::vector<int64_t> usage = usage_by_team(snapshot, nominal.size(), primary);
  const AfterPlan after = after_plan(snapshot, plan, nominal, primary);
  const PlanMarks marks(plan, nominal.size());
  for (size_t team = 0; team < verdicts.size(); ++team) {
    if (verdicts[team] != GuaranteeVerdict::kViolated) continue;
    const std::vector<uint32_t>& queue = queues.queue(TeamIndex(static_cast<uint32_t>(team)));
    const size_t unserved = first_unserved(queue, marks.judged(team), nominal[team] - usage[team],
                                           snapshot, marks, primary);
    ALLOT_CHECK(unserved != SIZE_MAX);
    const PendingWorkload& owed = snapshot.pending[queue[unserved]];
    const std::vector<int64_t> room = room_for(snapshot, plan, owed.id, nodes, primary);
    if (!fits_without_borrowers(after, room, owed, nominal, nodes, team_flavors[team], primary)) {
      classes[team] = ViolationClass::kFragmented;
    } else if (fits_by_bounded_reclaim(after, room, owed, nominal, nodes, team_flavors[team],
                                       primary)) {
      classes[team] = ViolationClass::kReclaimable;
    } else {
      classes[team] = ViolationClass::kBeyondBound;
    }
  }
  return classes;
}

GuaranteeTracker::GuaranteeTracker(std::vector<int64_t> nominal, Resource primary,
                                   std::vector<GuaranteeNode> nodes,
                                   std::vector<std::vector<FlavorIndex>> team_flavors)
    : nominal_(std::move(nominal)),
      primary_(primary),
      nodes_(std::move(nodes)),
      team_flavors_(std::move(team_flavors)),
      counts_(nominal_.size()),
      violated_run_(nominal_.size(), 0) {}

void GuaranteeTracker::observe(const Snapshot& snapshot, const Plan& plan,
                               const PendingQueues& queues) {
  last_ = judge_guarantees(snapshot, plan, queues, nominal_, primary_);
  last_classes_ =
      classify_violations(snapshot, plan, queues, last_, nominal_, nodes_, team_flavors_, primary_);
}

void GuaranteeTracker::count(int64_t grid_cycles) {
  ALLOT_CHECK(grid_cycles >= 1);
  ALLOT_CHECK(last_.size() == counts_.size());
  for (size_t team = 0; team < last_.size(); ++team) {
    int64_t& run = violated_run_[team];
    run = last_[team] == GuaranteeVerdict::kViolated ? run + grid_cycles : 0;
    counts_[team].longest_violated_run = std::max(counts_[team].longest_violated_run, run);
    if (last_[team] == GuaranteeVerdict::kNotOwed) {
      continue;
    }
    counts_[team].owed += grid_cycles;
    if (last_[team] == GuaranteeVerdict::kCompliant) {
      counts_[team].compliant += grid_cycles;
    } else if (last_classes_[team] == ViolationClass::kReclaimable) {
      counts_[team].reclaimable += grid_cycles;
    } else if (last_classes_[team] == ViolationClass::kBeyondBound) {
      counts_[team].beyond_bound += grid_cycles;
    } else {
      counts_[team].fragmented += grid_cycles;
    }
  }
  last_.clear();
  last_classes_.clear();
}

}  // namespace allot
