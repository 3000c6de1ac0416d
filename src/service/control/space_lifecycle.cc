#include "service/control/space_lifecycle.h"

#include <algorithm>
#include <string>

#include "scheduler/space_idle.h"
#include "service/control/pod_lifecycle.h"
#include "service/control/workload_transitions.h"

namespace allot {
namespace {

bool is_watched(const LiveWorkload& live) {
  const WorkloadSpec& spec = live.doc.workload.spec;
  return spec.kind == WorkloadKind::kSpace && spec.idle_timeout &&
         live.phase() == WorkloadPhase::kRunning && !live.run.stopping();
}

// The queued_at of the team's waiting workloads at the space's priority.
std::vector<Timestamp> team_waiting(const LiveWorkload& space, const ServerState& state) {
  std::vector<Timestamp> out;
  for (const auto& [id, pointer] : state.workloads.active()) {
    const LiveWorkload& other = *pointer;
    if (id == space.id() || !other.run.waiting() || !is_waiting(other.phase()) ||
        other.doc.status.team != space.doc.status.team ||
        other.request.priority != space.request.priority) {
      continue;
    }
    out.push_back(other.doc.status.queued_at);
  }
  return out;
}

}  // namespace

std::vector<WorkloadId> watched_spaces(const ServerState& state) {
  std::vector<WorkloadId> out;
  for (const auto& [id, pointer] : state.workloads.active()) {
    if (is_watched(*pointer)) out.push_back(id);
  }
  return out;
}

Timestamp suspend_idle_spaces(ServerState& state,
                              const std::map<WorkloadId, ActivitySample>& samples, Timestamp now,
                              WriteBatch& batch, Actions& actions) {
  Timestamp next = Timestamp::infinite_future();
  for (const auto& [id, sample] : samples) {
    LiveWorkload* live = state.workloads.find(id);
    if (live == nullptr || !is_watched(*live) || !live->doc.status.started_at) continue;
    const Timestamp started = *live->doc.status.started_at;
    // A run's start is activity; a new run starts a new record (CPU baseline too).
    if (live->activity.last_active < started) live->activity = start_activity(started);
    observe_activity(live->activity, sample, now);
    const Duration timeout = *live->doc.workload.spec.idle_timeout;
    if (!is_idle(live->activity, timeout, now)) {
      next = std::min(next, idle_deadline(live->activity, timeout));
      continue;
    }
    request_stop(live->run, StopCause::kSuspend);
    const Duration grace = grace_period_of(*live, state);
    actions.stops.push_back({id, grace});
    note(*live, "Normal", "Suspending",
         "no activity for " + (now - live->activity.last_active).to_string() +
             " (idleTimeoutSeconds " + timeout.to_string() +
             "); stopping its pods with a grace period of " + grace.to_string() +
             " to release its quota; its working folder is kept",
         now, batch);
  }
  return next;
}

Status resume_space(LiveWorkload& space, ServerState& state, const std::string& by, Timestamp now,
                    WriteBatch& batch) {
  if (space.phase() != WorkloadPhase::kSuspended || !space.run.suspended()) {
    return failed_precondition("workload " + space.key() + " is not suspended (" +
                               std::string(workload_phase_name(space.phase())) +
                               "): only a suspended Space can be resumed");
  }
  const std::vector<Timestamp> waiting = team_waiting(space, state);
  resume_run(space.run);
  space.doc.status.queued_at = resumed_queue_position(space.doc.status.queued_at, waiting);
  enter_phase(space, WorkloadPhase::kPending, "Resumed",
              "resumed" + (by.empty() ? std::string() : " by " + by) +
                  "; requeued at the front of its team's queue among its priority",
              now, batch);
  return {};
}

}  // namespace allot
