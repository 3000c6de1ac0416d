#include "scheduler/workload_run.h"

#include "base/check.h"

namespace allot {
namespace {

RunEnd end_of(StopCause cause) {
  switch (cause) {
    case StopCause::kNone:
    case StopCause::kFail: return RunEnd::kFailed;
    case StopCause::kMaxRuntime: return RunEnd::kMaxRuntime;
    case StopCause::kCancel: return RunEnd::kCancelled;
    case StopCause::kPreempt: return RunEnd::kPreempted;
    case StopCause::kEvict: return RunEnd::kEvicted;
    case StopCause::kSuspend: return RunEnd::kSuspended;
  }
  return RunEnd::kFailed;
}

}  // namespace

void start_run(WorkloadRun& run) {
  ALLOT_CHECK(run.waiting());
  run.state = RunState::kRunning;
  run.stop = StopCause::kNone;
  run.released = false;
  run.preempting_for = WorkloadId();
}

bool request_stop(WorkloadRun& run, StopCause cause) {
  ALLOT_CHECK(cause != StopCause::kNone);
  if (!run.running()) return false;
  const bool overrides =
      (cause == StopCause::kCancel && run.stop != StopCause::kCancel) ||
      (cause == StopCause::kEvict && run.stop == StopCause::kPreempt && !run.released);
  if (run.stopping() && !overrides) return false;
  run.stop = cause;
  return true;
}

void resume_run(WorkloadRun& run) {
  ALLOT_CHECK(run.suspended());
  run.state = RunState::kWaiting;
}

void withdraw(WorkloadRun& run) {
  ALLOT_CHECK(run.waiting() || run.suspended());
  run.state = RunState::kEnded;
}

RunEnd end_run(WorkloadRun& run, bool completed) {
  ALLOT_CHECK(run.running());
  const RunEnd end = completed ? RunEnd::kSucceeded : end_of(run.stop);
  if (end == RunEnd::kSuspended) {
    run.state = RunState::kSuspended;
  } else {
    run.state = is_requeue(end) ? RunState::kWaiting : RunState::kEnded;
  }
  if (is_requeue(end)) ++run.restarts;
  run.stop = StopCause::kNone;
  run.released = false;
  run.preempting_for = WorkloadId();
  return end;
}

}  // namespace allot
