#include "service/simulation/guarantee_tracker.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>

#include "base/check.h"
#include "scheduler/pending_index.h"
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

// What the plan says of each pending workload (by pending index).
enum PlanMark : uint8_t { kServed = 1, kNotJudged = 2 };

// Served: admitted, a planned preemption's beneficiary, or explained as
// preempting or waiting for victims. Not judged: held back by its own team's
// StrictFIFO head. A plan names every blocked workload of a StrictFIFO team
// each cycle, so marks are found by id in the (id-sorted) pending vector:
// nothing is allocated per workload and nothing is sorted.
// A pending workload's index by id: a table indexed by id when the ids span
// little more than the pending work (the simulator numbers workloads 0..n-1),
// else a binary search (PendingIndex). Looking up every explanation of a deep
// backlog by binary search was 40% of a hard-quota replay at load 2.
class GuaranteePendingLookup {
 public:
  explicit GuaranteePendingLookup(const std::vector<PendingWorkload>& pending) {
    if (pending.empty()) return;
    uint64_t low = UINT64_MAX;
    uint64_t high = 0;
    for (const PendingWorkload& w : pending) {
      low = std::min(low, w.id.value());
      high = std::max(high, w.id.value());
    }
    if (high - low > kMaxSpanPerWorkload * pending.size() + kMinSpan) {
      search_.emplace(pending);
      return;
    }
    base_ = low;
    table_.assign(high - low + 1, kNone);
    for (uint32_t i = 0; i < pending.size(); ++i) table_[pending[i].id.value() - low] = i;
  }

  [[nodiscard]] std::optional<uint32_t> find(WorkloadId id) const {
    if (search_) return search_->find(id);
    const uint64_t v = id.value();
    if (v < base_ || v - base_ >= table_.size() || table_[v - base_] == kNone) return std::nullopt;
    return table_[v - base_];
  }

 private:
  static constexpr uint64_t kMaxSpanPerWorkload = 64;
  static constexpr uint64_t kMinSpan = 65536;
  static constexpr uint32_t kNone = UINT32_MAX;
  uint64_t base_ = 0;
  std::vector<uint32_t> table_;
  std::optional<PendingIndex> search_;
};

std::vector<uint8_t> plan_marks(const Snapshot& snapshot, const Plan& plan) {
  const GuaranteePendingLookup index(snapshot.pending);
  std::vector<uint8_t> marks(snapshot.pending.size(), 0);
  const auto mark = [&](WorkloadId id, PlanMark what) {
    if (const std::optional<uint32_t> i = index.find(id)) marks[*i] |= what;
  };
  for (const Admission& admission : plan.admissions) mark(admission.workload, kServed);
  for (const Preemption& preemption : plan.preemptions) mark(preemption.beneficiary, kServed);
  for (const PendingExplanation& explanation : plan.explanations) {
    switch (explanation.preemption) {
      case PreemptionVerdict::kPreempting:
      case PreemptionVerdict::kWaitingForVictims:
      case PreemptionVerdict::kDeferred: mark(explanation.workload, kServed); break;
      default: break;
    }
    if (explanation.reason == PendingReason::kBlockedByStrictFifo) {
      mark(explanation.workload, kNotJudged);
    }
  }
  return marks;
}

GuaranteeVerdict judge_team(std::vector<uint32_t>& queue, int64_t remaining,
                            const Snapshot& snapshot, const std::vector<uint8_t>& marks,
                            Resource primary) {
  const auto before = [&](uint32_t a, uint32_t b) {
    return queue_before(snapshot.pending[a], snapshot.pending[b]);
  };
  // Pending work kept by id is mostly in queue order already: check first.
  if (!std::is_sorted(queue.begin(), queue.end(), before)) {
    std::sort(queue.begin(), queue.end(), before);
  }
  for (const uint32_t i : queue) {
    const int64_t request = request_of(snapshot.pending[i], primary);
    if ((marks[i] & kServed) != 0) {
      remaining = std::max<int64_t>(0, remaining - request);
    } else if (request <= remaining && (marks[i] & kNotJudged) == 0) {
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
  const std::vector<uint8_t> marks = plan_marks(snapshot, plan);
  // Only owed teams are judged, and a workload its StrictFIFO head holds back
  // (not judged, not served) changes no verdict: neither is queued, so a deep
  // blocked tail is neither sorted nor read. The rest keep their queue order.
  std::vector<std::vector<uint32_t>> queues(nominal.size());
  std::vector<bool> owed(nominal.size(), false);  // has pending work, below its nominal
  for (uint32_t i = 0; i < snapshot.pending.size(); ++i) {
    const size_t team = snapshot.pending[i].team.value();
    ALLOT_CHECK(team < queues.size());
    if (usage[team] >= nominal[team]) continue;
    owed[team] = true;
    if (marks[i] != kNotJudged) queues[team].push_back(i);
  }
  std::vector<GuaranteeVerdict> verdicts(nominal.size(), GuaranteeVerdict::kNotOwed);
  for (size_t team = 0; team < nominal.size(); ++team) {
    if (owed[team]) {
      verdicts[team] =
          judge_team(queues[team], nominal[team] - usage[team], snapshot, marks, primary);
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
