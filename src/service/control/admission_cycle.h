// The admission cycle of allotd: from live state to a Snapshot, and a Plan
// back into live state (DESIGN.md section 3).
//
// Contract: build_snapshot() reads the state only; workloads the current
// policy cannot place (their flavor or a node is gone) are listed in
// `orphans` instead of the snapshot, and the caller evicts them with
// evict_orphans(). apply_plan() carries the plan into the state in the plan's
// order (evictions, preemptions, admissions), appending records and events to
// the batch and the stops and launches to the actions. stale_plan_reason()
// says whether a plan made from an earlier snapshot may still be applied.
// All are pure functions of their inputs: no I/O, no clock.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "scheduler/plan.h"
#include "scheduler/snapshot.h"
#include "service/control/server_state.h"

namespace allot {

struct CycleInput {
  Snapshot snapshot;
  std::vector<WorkloadId> orphans;
};

// A waiting workload as the scheduler sees it in a snapshot.
PendingWorkload pending_request(const LiveWorkload& live);

// REQUIRES: state.policy.compiled() is not null.
CycleInput build_snapshot(const ServerState& state, Timestamp now);

void evict_orphans(const std::vector<WorkloadId>& orphans, ServerState& state, Timestamp now,
                   WriteBatch& batch, Actions& actions);

void apply_plan(const Plan& plan, ServerState& state, Timestamp now, WriteBatch& batch,
                Actions& actions);

// Why `plan`, made from an earlier snapshot of `state` under the same policy,
// must not be applied to `state` as it is now; empty when it may. Between
// the snapshot and now only cancels, deletes and node cordons, drains and
// uncordons can have come (the loop alone admits work, applies pod exits and
// node health); none of them adds usage, so a plan still fits its quotas
// and nodes unless it relies on what they changed: a plan applies when every
// workload it admits still waits, on nodes still schedulable, and every
// victim it preempts still runs with no stop asked (a victim already
// stopping keeps its capacity, which a preemption without grace gives the
// beneficiary in the same plan), for a beneficiary that still waits.
// REQUIRES: state.policy.compiled() is the policy the plan was made under.
std::string stale_plan_reason(const Plan& plan, const ServerState& state);

// An admitted workload with its placed pods, ready to launch, with its
// checkpoint folder (workload_checkpoints.h; empty: none).
WorkloadLaunch workload_launch(const LiveWorkload& workload, const std::string& checkpoint_folder);

}  // namespace allot
