// WorkloadRun: where one workload stands between the scheduler's plans, and
// how a run ends. Together with plan_effects.h it is the one semantics of
// carrying plans out that the simulator and allotd share.
//
// Contract:
// - A workload waits (pending, or requeued after a stop), runs (admitted,
//   from its admission until its run has ended) or has ended for good.
// - A running workload may be asked to stop (request_stop); the first cause
//   stands, with two exceptions: a cancel overrides any other cause (the
//   user's word is final: cancelled work is never requeued), and an eviction
//   (its node failed) overrides a preemption that is still in its grace
//   period, since the node's pods are gone either way.
// - end_run() is called once every pod of the run has ended. A run whose
//   pods all completed (exit 0, not stopped) succeeded, whatever stop was
//   asked meanwhile. Otherwise its stop cause decides: preempted or evicted
//   work is requeued at its original position (queued_at is never changed by
//   a requeue) with restarts + 1; cancelled work is cancelled; work that ran
//   past its maxRuntime, or a pod of which failed, has failed; a Space stopped
//   for being idle (kSuspend) is suspended: neither queued nor ended, until
//   resume_run() puts it back in its queue (docs/spaces.md).
// Pure value type; no I/O, no clock.
#pragma once

#include <cstdint>

#include "model/workload_status.h"
#include "scheduler/ids.h"

namespace allot {

enum class RunState : uint8_t { kWaiting, kRunning, kEnded, kSuspended };

// StopCause (why a run is being stopped) is the model's (model/workload_status.h).

enum class RunEnd : uint8_t {
  kSucceeded,
  kFailed,      // a pod failed, or it was stopped for no cause
  kMaxRuntime,  // failed: stopped for running too long
  kCancelled,
  kPreempted,  // requeued
  kEvicted,    // requeued
  kSuspended,  // a Space stopped for being idle: out of its queue until resumed
};

// 24 bytes: allotd keeps one per workload it has ever seen. Its place in its
// team's queue (queued_at) stays with its owner: a requeue never changes it.
struct WorkloadRun {
  RunState state = RunState::kWaiting;
  StopCause stop = StopCause::kNone;
  // Stopping with no grace period for a preemption: the scheduler already
  // counts its capacity as free, so it is left out of snapshots until it ends.
  bool released = false;
  int32_t restarts = 0;       // runs that ended in a requeue
  WorkloadId preempted_by;    // the last preemptor, kept across requeues
  WorkloadId preempting_for;  // while stopping for a preemption: the beneficiary

  [[nodiscard]] bool waiting() const { return state == RunState::kWaiting; }
  [[nodiscard]] bool running() const { return state == RunState::kRunning; }
  [[nodiscard]] bool suspended() const { return state == RunState::kSuspended; }
  [[nodiscard]] bool stopping() const { return stop != StopCause::kNone; }
  // Whether the scheduler sees it as holding capacity.
  [[nodiscard]] bool holds_capacity() const { return running() && !released; }

  friend bool operator==(const WorkloadRun&, const WorkloadRun&) = default;
};

// A waiting workload starts running (its admission).
// REQUIRES: run.waiting().
void start_run(WorkloadRun& run);

// Asks a running workload to stop for `cause`; false when it is not running
// or already stopping for a cause that stands (see the contract).
// REQUIRES: cause != kNone.
bool request_stop(WorkloadRun& run, StopCause cause);

// A waiting or suspended workload ends for good (cancelled while waiting).
// REQUIRES: run.waiting() || run.suspended().
void withdraw(WorkloadRun& run);

// A suspended workload goes back to its queue (resumed).
// REQUIRES: run.suspended().
void resume_run(WorkloadRun& run);

// How the run ends, once every pod of it has ended; `completed`: every pod
// exited 0 without being stopped. Leaves the run waiting (requeued),
// suspended or ended.
// REQUIRES: run.running().
RunEnd end_run(WorkloadRun& run, bool completed);

[[nodiscard]] constexpr bool is_requeue(RunEnd end) {
  return end == RunEnd::kPreempted || end == RunEnd::kEvicted;
}

}  // namespace allot
