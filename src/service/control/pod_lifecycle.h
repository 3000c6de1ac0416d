// Pod lifecycle: what allotd does when pods start and exit, when a user
// cancels, and when work runs past its maxRuntime.
//
// Contract: every function changes the live state, appends records and
// events to the batch and stops to the actions; pure (no I/O, no clock).
// A run ends when every pod of it has reported one exit (a pod that failed to
// launch reports one too). How it ends depends on why it was stopped:
//   nothing stopped it: Succeeded when every pod exited 0, else Failed
//   (the first failure stops the other pods at once); a pod the backend
//   lost (PodEvent.lost: its node failed) is not a failure: the run is
//   evicted (the other pods stopped) and requeued;
//   preempted or evicted: Preempted (requeued at its original position);
//   cancelled: Cancelled; past maxRuntime: Failed.
#pragma once

#include <cstdint>

#include "service/control/server_state.h"

namespace allot {

// Takes what the backend says of the workload's job now (state.backend_job:
// Slurm's job id, state, reason, nodes) into its status while it holds
// quota, and stores it when it changed: a pod's start or exit brings the
// stored `status.backend` up to date. Nothing when the backend has none.
// A job the backend runs on other nodes than allot placed it on
// (placed_nodes set) adds a Warning event "PlacedElsewhere", once per job.
void refresh_backend_job(WorkloadId workload, ServerState& state, Timestamp now, WriteBatch& batch);

// `started` pods of the workload's current run were launched successfully.
void apply_pods_started(WorkloadId workload, int32_t started, ServerState& state, Timestamp now,
                        WriteBatch& batch);

// REQUIRES: exit.phase == kExited.
void apply_pod_exit(const PodEvent& exit, ServerState& state, Timestamp now, WriteBatch& batch,
                    Actions& actions);

// Cancels a workload: at once when it waits, else by stopping its pods with
// its priority class's grace period. kFailedPrecondition when it is final.
Status cancel_workload(LiveWorkload& workload, const ServerState& state, Timestamp now,
                       WriteBatch& batch, Actions& actions);

// Stops running work whose maxRuntime has passed; returns the earliest future
// time another one will pass (infinite_future when none).
Timestamp enforce_max_runtime(ServerState& state, Timestamp now, WriteBatch& batch,
                              Actions& actions);

// Erases the deleted workloads (state.erase_when_stopped) whose pods have all
// stopped, with their records, and drops their updates from the batch.
void erase_deleted_workloads(ServerState& state, WriteBatch& batch);

// The grace period of the workload's priority class (30s when the policy no
// longer knows it).
Duration grace_period_of(const LiveWorkload& workload, const ServerState& state);

}  // namespace allot
