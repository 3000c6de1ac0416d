// Plan effects: a Plan carried out on the runs of the workloads it names,
// the one semantics that the simulator and allotd share (DESIGN.md section 3).
//
// Contract: carry_out() follows the Plan contract (plan.h) and changes only
// the runs (workload_run.h) that the RunTable finds:
// - evictions: a running workload on a failed node stops at once (no grace),
//   a preemption still in its grace period included; a gang on several failed
//   nodes is stopped once;
// - preemptions: a running workload that is not stopping yet stops with the
//   plan's grace period and remembers its preemptor; with no grace period it
//   is released at once (its capacity is the beneficiary's in this plan);
// - admissions: a waiting workload starts running.
// An action the runs do not allow (an unknown workload, a victim picked twice,
// an admission of running work) is skipped: a plan is made from a snapshot.
// It returns what the caller must do outside: the stops, then the starts, in
// the plan's order. The caller stops the runs (an executor, with the grace
// period of each), lets those without grace end before it starts the
// admitted ones, and calls end_run() as each run ends.
// Pure: no I/O, no clock; deterministic.
#pragma once

#include <vector>

#include "base/time.h"
#include "scheduler/plan.h"
#include "scheduler/workload_run.h"

namespace allot {

// The runs a plan acts on, kept by their owner (the simulator's table or
// allotd's live workloads).
class RunTable {
 public:
  // The run of `workload`, or null when the table does not know it.
  [[nodiscard]] virtual WorkloadRun* find_run(WorkloadId workload) = 0;

 protected:
  RunTable() = default;
  ~RunTable() = default;
  RunTable(const RunTable&) = default;
  RunTable& operator=(const RunTable&) = default;
};

// One run to stop; points into the plan it came from.
struct StopEffect {
  WorkloadId workload;
  StopCause cause = StopCause::kEvict;     // kEvict or kPreempt
  Duration grace;                          // zero for evictions
  const Eviction* eviction = nullptr;      // set for kEvict
  const Preemption* preemption = nullptr;  // set for kPreempt
};

struct PlanEffects {
  std::vector<StopEffect> stops;         // evictions, then preemptions
  std::vector<const Admission*> starts;  // into the plan, in its order

  [[nodiscard]] bool empty() const { return stops.empty() && starts.empty(); }
  // Some stop has no grace period: it must end before the starts begin.
  [[nodiscard]] bool any_immediate_stop() const;
};

// REQUIRES: `plan` outlives the returned effects.
PlanEffects carry_out(const Plan& plan, RunTable& runs);

}  // namespace allot
