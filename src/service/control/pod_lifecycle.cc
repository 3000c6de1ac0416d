#include "service/control/pod_lifecycle.h"

#include <string>
#include <utility>

#include "service/control/workload_redaction.h"
#include "service/control/workload_transitions.h"

namespace allot {
namespace {

void reset_pods(LiveWorkload& live) {
  live.pods = 0;
  live.pods_started = 0;
  live.pods_exited = 0;
}

// Every pod of the run has ended: end_run() says how the run ends.
void finish_run(LiveWorkload& live, Timestamp now, WriteBatch& batch) {
  const int32_t pods = live.pods;
  WorkloadStatus& status = live.doc.status;
  const RunEnd end = end_run(live.run, live.pods_all_succeeded);
  reset_pods(live);
  status.restarts = live.run.restarts;
  switch (end) {
    case RunEnd::kSucceeded:
      status.exit_code = 0;
      enter_phase(live, WorkloadPhase::kSucceeded, "Completed",
                  "all " + std::to_string(pods) + " pods exited with code 0", now, batch);
      return;
    case RunEnd::kFailed:
      status.exit_code = live.failed_exit_code.value_or(1);
      enter_phase(live, WorkloadPhase::kFailed, "PodFailed",
                  "a pod exited with code " + std::to_string(status.exit_code.value_or(1)) +
                      "; the other pods were stopped",
                  now, batch);
      return;
    case RunEnd::kMaxRuntime:
      enter_phase(live, WorkloadPhase::kFailed, "MaxRuntimeExceeded",
                  "ran past maxRuntimeSeconds and was stopped", now, batch);
      return;
    case RunEnd::kCancelled:
      enter_phase(live, WorkloadPhase::kCancelled, "Cancelled", "cancelled; its pods stopped", now,
                  batch);
      return;
    case RunEnd::kPreempted:
      enter_phase(live, WorkloadPhase::kPreempted, "Preempted",
                  preempted_by_phrase(status.preempted_by) + "; requeued at its original position",
                  now, batch);
      return;
    case RunEnd::kEvicted:
      enter_phase(live, WorkloadPhase::kPreempted, "Evicted",
                  "its node failed or was drained; requeued at its original position", now, batch);
      return;
    case RunEnd::kSuspended:
      enter_phase(live, WorkloadPhase::kSuspended, "Idle",
                  "suspended for being idle longer than idleTimeoutSeconds: its pods stopped, its "
                  "quota released, its working folder kept; `allot resume` requeues it",
                  now, batch);
      return;
  }
}

}  // namespace

Duration grace_period_of(const LiveWorkload& workload, const ServerState& state) {
  const auto& compiled = state.policy.compiled();
  if (!compiled || !workload.request.priority_class.valid() ||
      workload.request.priority_class.value() >= compiled->priority_classes().size()) {
    return Duration::seconds(30);
  }
  return compiled->priority_class(workload.request.priority_class).grace_period;
}

void refresh_backend_job(WorkloadId workload, ServerState& state, Timestamp now,
                         WriteBatch& batch) {
  if (!state.backend_job) return;
  LiveWorkload* live = state.workloads.find(workload);
  if (live == nullptr || !holds_quota(live->phase())) return;
  std::optional<BackendJob> job = state.backend_job(workload);
  if (!job || live->doc.status.backend == job) return;
  const bool newly_elsewhere =
      !job->placed_nodes.empty() &&
      (!live->doc.status.backend || live->doc.status.backend->job_id != job->job_id ||
       live->doc.status.backend->placed_nodes.empty());
  const BackendJob seen = *job;
  live->doc.status.backend = std::move(job);
  if (newly_elsewhere) {
    // Accepted, not requeued (slurm_executor.h says why): recorded once per job.
    note(*live, "Warning", "PlacedElsewhere",
         "the backend runs job " + seen.job_id + " on " + seen.nodes +
             ", not where allot placed it (" + seen.placed_nodes +
             "); the job is kept where it runs",
         now, batch);
  }
  store_record(*live, batch);
}

void apply_pods_started(WorkloadId workload, int32_t started, ServerState& state, Timestamp now,
                        WriteBatch& batch) {
  LiveWorkload* live = state.workloads.find(workload);
  if (live == nullptr || live->phase() != WorkloadPhase::kAdmitted) return;
  live->pods_started += started;
  if (live->run.stopping() || live->pods_started < live->pods) return;
  enter_phase(*live, WorkloadPhase::kRunning, "Started",
              std::to_string(live->pods) + (live->pods == 1 ? " pod" : " pods") + " running", now,
              batch);
}

void apply_pod_exit(const PodEvent& exit, ServerState& state, Timestamp now, WriteBatch& batch,
                    Actions& actions) {
  LiveWorkload* live = state.workloads.find(exit.pod.workload);
  if (live == nullptr || !holds_quota(live->phase())) return;
  ++live->pods_exited;
  live->pods_all_succeeded = live->pods_all_succeeded && exit.succeeded();
  if (exit.lost && !exit.stopped && !live->run.stopping()) {
    request_stop(live->run, StopCause::kEvict);  // the backend's doing: requeued
    if (live->pods_exited < live->pods) actions.stops.push_back({live->id(), Duration()});
    note(*live, "Warning", "PodLost",
         "pod " + std::to_string(exit.pod.index) +
             " was lost by the backend (its node failed); the workload is requeued",
         now, batch);
  } else if (!exit.succeeded() && !exit.stopped && !live->run.stopping()) {
    live->failed_exit_code = exit.signal != 0 ? 128 + exit.signal : exit.exit_code;
    request_stop(live->run, StopCause::kFail);
    if (live->pods_exited < live->pods) actions.stops.push_back({live->id(), Duration()});
    note(*live, "Warning", "PodFailed",
         "pod " + std::to_string(exit.pod.index) + " exited with code " +
             std::to_string(*live->failed_exit_code),
         now, batch);
  }
  if (live->pods_exited >= live->pods) finish_run(*live, now, batch);
}

Status cancel_workload(LiveWorkload& workload, const ServerState& state, Timestamp now,
                       WriteBatch& batch, Actions& actions) {
  if (is_final(workload.phase())) {
    return failed_precondition("workload " + workload.key() + " already finished (" +
                               std::string(workload_phase_name(workload.phase())) + ")");
  }
  if (is_waiting(workload.phase()) || workload.phase() == WorkloadPhase::kSuspended) {
    const bool suspended = workload.phase() == WorkloadPhase::kSuspended;
    withdraw(workload.run);
    enter_phase(workload, WorkloadPhase::kCancelled, "Cancelled",
                suspended ? "cancelled while suspended" : "cancelled while waiting", now, batch);
    return {};
  }
  if (!request_stop(workload.run, StopCause::kCancel)) return {};  // already cancelling
  const Duration grace = grace_period_of(workload, state);
  actions.stops.push_back({workload.id(), grace});
  note(workload, "Normal", "Cancelling",
       "cancelled; stopping its pods with a grace period of " + grace.to_string(), now, batch);
  return {};
}

Timestamp enforce_max_runtime(ServerState& state, Timestamp now, WriteBatch& batch,
                              Actions& actions) {
  Timestamp next = Timestamp::infinite_future();
  for (const auto& [id, pointer] : state.workloads.active()) {
    LiveWorkload& live = *pointer;
    const auto& limit = live.doc.workload.spec.max_runtime;
    const auto& started = live.doc.status.started_at;
    if (!limit || !started || live.phase() != WorkloadPhase::kRunning || live.run.stopping()) {
      continue;
    }
    const Timestamp deadline = *started + *limit;
    if (deadline > now) {
      next = std::min(next, deadline);
      continue;
    }
    request_stop(live.run, StopCause::kMaxRuntime);
    actions.stops.push_back({id, grace_period_of(live, state)});
    note(live, "Warning", "MaxRuntimeExceeded",
         "running longer than maxRuntimeSeconds (" + limit->to_string() + "); stopping", now,
         batch);
  }
  return next;
}

void erase_deleted_workloads(ServerState& state, WriteBatch& batch) {
  std::erase_if(state.erase_when_stopped, [&](WorkloadId id) {
    const LiveWorkload* live = state.workloads.find(id);
    if (live != nullptr && !is_final(live->phase())) return false;
    state.workloads.erase(id);
    state.endpoint_scalers.erase(id);  // an endpoint's scaling window goes with it
    batch.delete_workloads.push_back(id);
    batch.erase_workload(id);
    std::erase_if(batch.events, [id](const EventRecord& e) { return e.workload_id == id; });
    return true;
  });
}

}  // namespace allot
