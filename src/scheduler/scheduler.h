// Scheduler: the pure decision function of DESIGN.md section 3.
//
// Contract: plan() reads a Snapshot and returns a Plan; it does no I/O, reads
// no clock, starts no threads and is deterministic (the same snapshot always
// gives the same plan). The Scheduler keeps only the immutable compiled policy
// and may be shared across threads for concurrent const calls.
#pragma once

#include <memory>

#include "scheduler/compiled_policy.h"
#include "scheduler/pending_queues.h"
#include "scheduler/plan.h"
#include "scheduler/snapshot.h"
#include "scheduler/topology.h"

namespace allot {

struct SchedulerOptions {
  // At most this many reservations per flavor and cycle for single-pod
  // workloads blocked by fragmentation. Gangs (more than one pod) are not
  // counted: every blocked gang that can be served gets one, most important first.
  int32_t max_reservations_per_flavor = 4;
  // Whether to compute estimated start times (costs a sort of running work).
  bool estimate_start_times = true;
  // Whether each workload behind a blocked StrictFIFO head gets its own
  // explanation; when false the plan names each such tail once
  // (Plan::blocked_tails), so that a cycle's cost does not grow with it. Every
  // other field of the plan is the same; expand_blocked_tails() gives the
  // explanations back. Off for callers that never read them (a trace replay).
  bool explain_blocked_tails = true;
  // Whether a failed admission attempt answers the next one of its team that
  // asks the same while nothing changed (admission_memo.h). The plan is the
  // same either way; off only to check that in tests.
  bool remember_admission_failures = true;
  // Whether the reservation planner keeps each shape's node steps for the
  // next gang of that shape while free capacity does not change
  // (reservation_steps.h). The plan is the same either way; off only to
  // check that in tests.
  bool reuse_reservation_steps = true;
  // Whether each flavor's quota at a reserved gang's start is kept for the
  // next gang and moved release by release while the live usage and the
  // releases do not change (released_quota.h). The plan is the same either
  // way; off only to check that in tests.
  bool reuse_released_quota = true;
  // Whether a whole-node workload of a team within its nominal that no
  // reclaim can serve drains the node nearest to clearable (cycle_drains.cc).
  bool drain_for_whole_node_work = true;
  // Whether a pending workload is promised the capacity that a running
  // workload of its own team will free when it ends by itself, so that a
  // backend that holds jobs ready (Slurm) starts it at that end
  // (cycle_turnovers.cc). On for such backends only: elsewhere a promise
  // gains nothing and only reorders admissions.
  bool turnover_handovers = false;
};

class Scheduler {
 public:
  explicit Scheduler(std::shared_ptr<const CompiledPolicy> policy, SchedulerOptions options = {});

  [[nodiscard]] Plan plan(const Snapshot& snapshot) const;
  // The same plan, from team queues and facts the caller keeps between cycles
  // (pending_queues.h: updated for this snapshot's pending work, with this
  // scheduler's policy); built afresh when `kept` does not match the snapshot.
  [[nodiscard]] Plan plan(const Snapshot& snapshot, const PendingQueues& kept) const;
  [[nodiscard]] const CompiledPolicy& policy() const { return *policy_; }

 private:
  std::shared_ptr<const CompiledPolicy> policy_;
  std::shared_ptr<const Topology> topology_;
  SchedulerOptions options_;
};

}  // namespace allot
