// GuaranteeTracker: measures guarantee compliance, the share of scheduling
// cycles in which a team that was owed quota had that demand served.
//
// Definition (primary resource only, amounts summed over the team's flavors):
// - at a cycle, team T is *owed* when it has pending workloads and its usage
//   (the requests of its admitted workloads, terminating ones included) is
//   below its nominal quota;
// - an owed cycle is *compliant* for T when, walking T's pending workloads in
//   queue order (priority, then queued_at, then id) with remaining = nominal -
//   usage, every workload whose request fits in `remaining` is served by the
//   end of the plan: admitted, named as the beneficiary of a planned
//   preemption, or explained with the preemption verdict kPreempting,
//   kWaitingForVictims or kDeferred. A served workload takes its request off
//   `remaining` (so two workloads that fit only one at a time are not both
//   owed). A workload held back by its own team's StrictFIFO head
//   (kBlockedByStrictFifo) is not judged: it waits by the team's choice.
// - compliance = compliant cycles / owed cycles; 1.0 when never owed;
// - the longest violation: the most grid cycles in a row in which the team
//   was owed and not served (how long a team waited for what it was owed).
// - a violated cycle is classed by the team's first owed workload that was
//   not served (the one the walk above stops at):
//   (All three after the cycle's plan: its admissions hold their nodes, and
//   a node it keeps drained for another workload, or room it promises another
//   in a handover, is no room for this one.)
//   *reclaimable* when a reclaim that keeps Kueue's per-team bound (it takes
//   a team's work only while the team uses more than its nominal) could make
//   room for it now (bounded_reclaim.h: an exhaustive search); *beyond the
//   bound* when its pods would fit the nodes only if every admitted workload
//   (terminating ones too) of every team whose usage is above its nominal
//   were gone, which no reclaim may do now (it would take some team's work
//   below its nominal, or the work is already stopping); *fragmented*
//   otherwise (the room is split by work of teams within their nominal,
//   which no reclaim may take). "Fit" without borrowers: each pod, largest
//   first, on the schedulable node (of the pod set's required flavor, else of
//   a flavor the team has quota in) whose free amount of the primary resource
//   is the smallest that holds it (best fit; ties to the lowest node index);
//   only the primary resource counts. Only a reclaimable cycle is one the
//   scheduler could have served under its rules.
//
// A plan that names a blocked StrictFIFO tail once (Plan::blocked_tails)
// instead of explaining each of its workloads is judged alike: the tail's
// workloads are not judged.
//
// Cycles are counted on the loop's grid: a cycle whose plan changed nothing,
// after which the loop skipped the idle cycles (whose snapshots and plans are
// the same), counts for every grid cycle it stands for, so skipping idle
// cycles does not change the figures.
// Contract: single-threaded value; per cycle, in time order, observe() then
// count() once.
#pragma once

#include <cstdint>
#include <vector>

#include "base/quantity.h"
#include "base/time.h"
#include "scheduler/pending_queues.h"
#include "scheduler/plan.h"
#include "scheduler/snapshot.h"
#include "service/simulation/after_plan.h"

namespace allot {

struct GuaranteeCount {
  int64_t owed = 0;          // grid cycles in which the team was owed
  int64_t compliant = 0;     // of those, the cycles in which its demand was served
  int64_t reclaimable = 0;   // violated cycles a bounded reclaim could have served
  int64_t beyond_bound = 0;  // violated cycles that only taking borrowers below nominal serves
  int64_t fragmented = 0;    // violated cycles whose owed workload fits no node even then
  // The most grid cycles in a row in which the team was owed and not served
  // (a cycle in which it was served or not owed ends a run).
  int64_t longest_violated_run = 0;

  friend bool operator==(const GuaranteeCount&, const GuaranteeCount&) = default;
};

enum class GuaranteeVerdict : uint8_t { kNotOwed, kCompliant, kViolated };
enum class ViolationClass : uint8_t { kNone, kReclaimable, kBeyondBound, kFragmented };

// A node as the violation classes see it (by NodeIndex).
struct GuaranteeNode {
  FlavorIndex flavor;
  int64_t capacity = 0;     // of the primary resource
  bool schedulable = true;  // as listed; the snapshot's NodeConditions can take it out
};

// The class of each team's violation (kNone where the verdict is not
// kViolated), from the team queues of the snapshot's pending work.
// REQUIRES: verdicts are judge_guarantees()'s for the same arguments.
// `team_flavors`: per TeamIndex, the flavors it has quota in.
std::vector<ViolationClass> classify_violations(
    const Snapshot& snapshot, const Plan& plan, const PendingQueues& queues,
    const std::vector<GuaranteeVerdict>& verdicts, const std::vector<int64_t>& nominal,
    const std::vector<GuaranteeNode>& nodes,
    const std::vector<std::vector<FlavorIndex>>& team_flavors, Resource primary);
// Whether `workload`'s pods fit `free` (room_for()'s, after_plan.h; `nodes`
// of `flavors`, the team's, for a pod set that requires none) once every
// workload of `after` of a team above its nominal (with the plan's
// admissions) is gone and the rest hold their room (see above).
bool fits_without_borrowers(const AfterPlan& after, std::vector<int64_t> free,
                            const PendingWorkload& workload, const std::vector<int64_t>& nominal,
                            const std::vector<GuaranteeNode>& nodes,
                            const std::vector<FlavorIndex>& flavors, Resource primary);

// The verdict of one cycle for every team (by TeamIndex).
// REQUIRES: nominal.size() covers every team index in `snapshot`.
std::vector<GuaranteeVerdict> judge_guarantees(const Snapshot& snapshot, const Plan& plan,
                                               const std::vector<int64_t>& nominal,
                                               Resource primary);
// The same from the team queues of the snapshot's pending work
// (pending_queues.h: built or kept for it), read only for owed teams and only
// up to a blocked tail named once.
std::vector<GuaranteeVerdict> judge_guarantees(const Snapshot& snapshot, const Plan& plan,
                                               const PendingQueues& queues,
                                               const std::vector<int64_t>& nominal,
                                               Resource primary);

class GuaranteeTracker {
 public:
  // `nominal`: per TeamIndex, of `primary`, summed over flavors; `nodes` (by
  // NodeIndex) and `team_flavors` (per TeamIndex), for the violation classes.
  GuaranteeTracker(std::vector<int64_t> nominal, Resource primary, std::vector<GuaranteeNode> nodes,
                   std::vector<std::vector<FlavorIndex>> team_flavors);

  // Judges the cycle; it counts once count() says for how many grid cycles.
  // `queues` are the team queues of the snapshot's pending work.
  void observe(const Snapshot& snapshot, const Plan& plan, const PendingQueues& queues);
  // REQUIRES: grid_cycles >= 1; observe() was called since the last count().
  void count(int64_t grid_cycles);

  [[nodiscard]] const std::vector<GuaranteeCount>& counts() const { return counts_; }

 private:
  std::vector<int64_t> nominal_;
  Resource primary_;
  std::vector<GuaranteeNode> nodes_;
  std::vector<std::vector<FlavorIndex>> team_flavors_;
  std::vector<GuaranteeVerdict> last_;  // the last observed cycle, not yet counted
  std::vector<ViolationClass> last_classes_;
  std::vector<GuaranteeCount> counts_;
  std::vector<int64_t> violated_run_;  // per team: violated grid cycles in a row, up to now
};

}  // namespace allot
