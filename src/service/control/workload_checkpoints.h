// Workload checkpoints in allotd (DESIGN.md section 3, "Failures"; issue 12,
// "Checkpoint and resume"): the folder a checkpointing workload's runs share,
// what its pods are told, and the checkpoint times it reports.
//
// Contract (pure functions of the state; no I/O):
// - checkpoint_folder() is the executor's folder for the workload (its team's
//   storage, the same for every run and across restarts of allotd; see
//   backends/executor.h), or empty when the workload declares no
//   `checkpoint` or the executor keeps no folders.
// - add_run_env() gives a launch ALLOT_RESTART_COUNT (the stored restart
//   count: 0 on the first run, one more after each requeue for a preemption,
//   a node failure or a restart of allotd) and, with a folder, sets the
//   workload's declared variable to it.
// - last_checkpoint() is what the scheduler counts work lost from: the last
//   checkpoint reported during the current run, else the run's admission.
// - record_checkpoint() keeps a reported checkpoint time (never later than
//   `now`, never earlier than the one already kept) in the workload's
//   status, stored with the batch; false when it changed nothing.
#pragma once

#include <string>

#include "backends/executor.h"
#include "base/time.h"
#include "service/control/live_workload.h"
#include "service/control/server_state.h"
#include "store/store.h"

namespace allot {

inline constexpr const char* kRestartCountEnv = "ALLOT_RESTART_COUNT";

CheckpointOwner checkpoint_owner(const LiveWorkload& workload);

std::string checkpoint_folder(const ServerState& state, const LiveWorkload& workload);

void add_run_env(const LiveWorkload& workload, const std::string& folder, WorkloadLaunch& launch);

Timestamp last_checkpoint(const LiveWorkload& workload, Timestamp admitted_at);

bool record_checkpoint(LiveWorkload& workload, Timestamp at, Timestamp now, WriteBatch& batch);

}  // namespace allot
