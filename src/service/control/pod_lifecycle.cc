#include "service/control/pod_lifecycle.h"

#include <string>
#include <utility>

#include "service/control/workload_transitions.h"

namespace allot {
namespace {

void reset_run(LiveWorkload& live) {
  live.pods = 0;
  live.pods_started = 0;
  live.pods_exited = 0;
  live.stop = StopIntent::kNone;
  live.released = false;
  live.preempting_for = 0;
}

void requeue(LiveWorkload& live, const char* reason, std::string message, Timestamp now,
             WriteBatch& batch) {
  ++live.doc.status.restarts;
  reset_run(live);
  enter_phase(live, WorkloadPhase::kPreempted, reason, std::move(message), now, batch);
}

void finish_run(LiveWorkload& live, Timestamp now, WriteBatch& batch) {
  const StopIntent intent = live.stop;
  const std::optional<int32_t> failure = live.failed_exit_code;
  const int32_t pods = live.pods;
  WorkloadStatus& status = live.doc.status;
  switch (intent) {
    case StopIntent::kNone:
      reset_run(live);
      status.exit_code = 0;
      enter_phase(live, WorkloadPhase::kSucceeded, "Completed",
                  "all " + std::to_string(pods) + " pods exited with code 0", now, batch);
      return;
    case StopIntent::kFail:
      reset_run(live);
      status.exit_code = failure.value_or(1);
      enter_phase(live, WorkloadPhase::kFailed, "PodFailed",
                  "a pod exited with code " + std::to_string(status.exit_code.value_or(1)) +
                      "; the other pods were stopped",
                  now, batch);
      return;
    case StopIntent::kMaxRuntime:
      reset_run(live);
      enter_phase(live, WorkloadPhase::kFailed, "MaxRuntimeExceeded",
                  "ran past maxRuntimeSeconds and was stopped", now, batch);
      return;
    case StopIntent::kCancel:
      reset_run(live);
      enter_phase(live, WorkloadPhase::kCancelled, "Cancelled", "cancelled; its pods stopped", now,
                  batch);
      return;
    case StopIntent::kPreempt:
      requeue(live, "Preempted",
              "preempted by " + status.preempted_by + "; requeued at its original position", now,
              batch);
      return;
    case StopIntent::kEvict:
      requeue(live, "Evicted", "its node failed or was drained; requeued at its original position",
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

void apply_pods_started(uint64_t uid, int32_t started, ServerState& state, Timestamp now,
                        WriteBatch& batch) {
  LiveWorkload* live = state.workloads.find(uid);
  if (live == nullptr || live->phase() != WorkloadPhase::kAdmitted) return;
  live->pods_started += started;
  if (live->stop != StopIntent::kNone || live->pods_started < live->pods) return;
  enter_phase(*live, WorkloadPhase::kRunning, "Started",
              std::to_string(live->pods) + (live->pods == 1 ? " pod" : " pods") + " running", now,
              batch);
}

void apply_pod_exit(const PodEvent& exit, ServerState& state, Timestamp now, WriteBatch& batch,
                    Actions& actions) {
  LiveWorkload* live = state.workloads.find(exit.pod.workload.value());
  if (live == nullptr || !holds_quota(live->phase())) return;
  ++live->pods_exited;
  if (!exit.succeeded() && !exit.stopped && live->stop == StopIntent::kNone) {
    live->failed_exit_code = exit.signal != 0 ? 128 + exit.signal : exit.exit_code;
    live->stop = StopIntent::kFail;
    live->doc.status.stopping = true;
    if (live->pods_exited < live->pods) actions.stops.push_back({live->uid(), Duration()});
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
  if (is_waiting(workload.phase())) {
    enter_phase(workload, WorkloadPhase::kCancelled, "Cancelled", "cancelled while waiting", now,
                batch);
    return {};
  }
  if (workload.stop == StopIntent::kCancel) return {};
  const Duration grace = grace_period_of(workload, state);
  workload.stop = StopIntent::kCancel;
  workload.doc.status.stopping = true;
  actions.stops.push_back({workload.uid(), grace});
  note(workload, "Normal", "Cancelling",
       "cancelled; stopping its pods with a grace period of " + grace.to_string(), now, batch);
  return {};
}

Timestamp enforce_max_runtime(ServerState& state, Timestamp now, WriteBatch& batch,
                              Actions& actions) {
  Timestamp next = Timestamp::infinite_future();
  for (const auto& [uid, pointer] : state.workloads.active()) {
    LiveWorkload& live = *pointer;
    const auto& limit = live.doc.workload.spec.max_runtime;
    const auto& started = live.doc.status.started_at;
    if (!limit || !started || live.phase() != WorkloadPhase::kRunning ||
        live.stop != StopIntent::kNone) {
      continue;
    }
    const Timestamp deadline = *started + *limit;
    if (deadline > now) {
      next = std::min(next, deadline);
      continue;
    }
    live.stop = StopIntent::kMaxRuntime;
    live.doc.status.stopping = true;
    actions.stops.push_back({uid, grace_period_of(live, state)});
    note(live, "Warning", "MaxRuntimeExceeded",
         "running longer than maxRuntimeSeconds (" + limit->to_string() + "); stopping", now,
         batch);
  }
  return next;
}

void erase_deleted_workloads(ServerState& state, WriteBatch& batch) {
  std::erase_if(state.erase_when_stopped, [&](uint64_t uid) {
    const LiveWorkload* live = state.workloads.find(uid);
    if (live != nullptr && !is_final(live->phase())) return false;
    state.workloads.erase(uid);
    const WorkloadId id(uid);
    batch.delete_workloads.push_back(id);
    std::erase_if(batch.put_workloads, [id](const WorkloadRecord& r) { return r.id == id; });
    std::erase_if(batch.events, [id](const EventRecord& e) { return e.workload_id == id; });
    return true;
  });
}

}  // namespace allot
