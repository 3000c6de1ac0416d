// Space lifecycle: allotd suspends an interactive Space (spec.kind: Space)
// that has been idle for its idleTimeoutSeconds, and resumes it on request
// (docs/spaces.md).
//
// Contract (pure: no I/O, no clock; the loop samples the executor):
// - watched_spaces() names the Spaces that are Running and not stopping: those
//   whose activity the loop reads (Executor::activity()) before it calls
//   suspend_idle_spaces().
// - suspend_idle_spaces() folds each sample into the space's activity
//   (scheduler/space_idle.h; a run's start counts as activity) and asks each
//   space idle past its timeout to stop for StopCause::kSuspend, with its
//   priority class's grace period, noting "Suspending". A space without a
//   sample is not judged. When its pods have ended, pod_lifecycle.h puts it in
//   phase Suspended: no quota, not queued, its working folder kept (the local
//   executor never removes it). Returns the earliest idle deadline to come
//   (infinite_future when none).
// - resume_space() puts a Suspended space back in its team's queue, at the
//   front among equal priority (resumed_queue_position()), as Pending with
//   reason "Resumed"; kFailedPrecondition when it is not Suspended. Both are
//   stored like every transition (workload_transitions.h), so they survive a
//   restart of allotd.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/status.h"
#include "model/activity_sample.h"
#include "service/control/server_state.h"

namespace allot {

[[nodiscard]] std::vector<WorkloadId> watched_spaces(const ServerState& state);

Timestamp suspend_idle_spaces(ServerState& state,
                              const std::map<WorkloadId, ActivitySample>& samples, Timestamp now,
                              WriteBatch& batch, Actions& actions);

Status resume_space(LiveWorkload& space, ServerState& state, const std::string& by, Timestamp now,
                    WriteBatch& batch);

}  // namespace allot
