// SteppedExecutor: the Executor port on virtual time (DESIGN.md section 5,
// "simulated"). The simulator drives one; a test can drive one too.
//
// Contract (beyond executor.h):
// - Nothing happens by itself: the caller advances time with advance_to(),
//   and the pods whose runs end by then are reported through the sink in
//   (time, workload, pod) order. While an event is reported, now() is the
//   time it happened; launch() and stop() act at now().
// - What a workload does comes from the VirtualWorkModel, asked once per
//   workload on its first launch: how long its pods run (a gang's pods run in
//   lockstep), whether its progress survives a stop, how its pods exit when
//   the work is done, or why they cannot start.
// - A run's work begins `start_latency` after its launch (the run holds its
//   capacity meanwhile; every run pays it, and progress counts only after it).
// - A stopped run ends at min(now + stop time, its natural end), where the
//   stop time is the grace period, or `stop_latency` when that is shorter;
//   if the natural end comes first (or at the same instant) it completes
//   instead. A later stop can only bring the end earlier. A checkpointed
//   workload's next run needs only what is left after its last checkpoint
//   (all of the progress, or that floored to its checkpoint interval); any
//   other starts over.
// - suspend() is a stop after which the next run needs only what is left:
//   all of the run's progress is kept, checkpoints or not (a Space's
//   suspension keeps its folder and its user's place, docs/spaces.md).
// - activity() of a running workload reports a heartbeat at now(), or, for
//   work with `active_for`, at the latest at its run's work start +
//   active_for; no CPU time. nullopt when it does not run.
// - launch() reports every pod kRunning (or its launch failure) before it
//   returns; events come only from the caller's thread, inside launch() and
//   advance_to().
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "backends/executor.h"
#include "base/time.h"

namespace allot {

struct VirtualWork {
  Duration runtime;           // the work of every pod, from its first start
  bool checkpointed = false;  // progress survives a stop
  // With `checkpointed`: a checkpoint every interval of progress, and a stop
  // keeps only the last one (model/checkpoint_progress.h); unset: all of it.
  std::optional<Duration> checkpoint_interval;
  int exit_code = 0;         // how its pods exit once the work is done
  std::string launch_error;  // non-empty: its pods cannot start, and why
  Duration start_latency;    // from each launch until the work begins
  // How long its pods take to end once asked to stop, within the grace
  // period; unset: they use the whole grace period.
  std::optional<Duration> stop_latency;
  // A Space's use (docs/spaces.md): its tools touch its heartbeat for this
  // long after each run's work begins, then it is idle. Unset: always active.
  std::optional<Duration> active_for;
};

using VirtualWorkModel = std::function<VirtualWork(const WorkloadLaunch& launch)>;

class SteppedExecutor : public Executor {
 public:
  // The executor's virtual time: the last advance_to(), or the time of the
  // event being reported.
  [[nodiscard]] virtual Timestamp now() const = 0;
  // When the next pod event is due; Timestamp::infinite_future() when idle.
  [[nodiscard]] virtual Timestamp next_event_time() const = 0;
  // stop() that keeps the run's progress (see the contract).
  virtual void suspend(WorkloadId workload, Duration grace) = 0;
  // Reports every event due at or before `time`, then stands at `time`.
  // REQUIRES: time >= now().
  virtual void advance_to(Timestamp time) = 0;
};

// How a layer that may not name a backend (the simulator) gets one: app/
// chooses the implementation and hands this down.
using SteppedExecutorFactory =
    std::function<std::unique_ptr<SteppedExecutor>(PodEventSink& sink, VirtualWorkModel model)>;

}  // namespace allot
