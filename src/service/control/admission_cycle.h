// The admission cycle of allotd: from live state to a Snapshot, and a Plan
// back into live state (DESIGN.md section 3).
//
// Contract: build_snapshot() reads the state only; workloads the current
// policy cannot place (their flavor or a node is gone) are listed in
// `orphans` instead of the snapshot, and the caller evicts them with
// evict_orphans(). apply_plan() carries the plan into the state in the plan's
// order (evictions, preemptions, admissions), appending records and events to
// the batch and the stops and launches to the actions. Both are pure
// functions of their inputs: no I/O, no clock.
#pragma once

#include <cstdint>
#include <vector>

#include "scheduler/plan.h"
#include "scheduler/snapshot.h"
#include "service/control/server_state.h"

namespace allot {

struct CycleInput {
  Snapshot snapshot;
  std::vector<WorkloadId> orphans;
};

// REQUIRES: state.policy.compiled() is not null.
CycleInput build_snapshot(const ServerState& state, Timestamp now);

void evict_orphans(const std::vector<WorkloadId>& orphans, ServerState& state, Timestamp now,
                   WriteBatch& batch, Actions& actions);

void apply_plan(const Plan& plan, ServerState& state, Timestamp now, WriteBatch& batch,
                Actions& actions);

// An admitted workload with its placed pods, ready to launch.
WorkloadLaunch workload_launch(const LiveWorkload& workload, const std::string& checkpoint_root);

}  // namespace allot
