// SimulationOptions: knobs of a simulation run that are not part of its input.
//
// Contract: plain value. `on_cycle` runs synchronously after every scheduling
// cycle with the snapshot the scheduler saw and the plan it returned (before
// the plan is carried out); tests use it to check invariants. It must not
// keep references to its arguments. `on_progress` runs after every cycle in
// which workloads arrived, with the number arrived so far and the total; it
// lets an edge draw a progress bar (the service itself reads no clock).
// `executor` makes the executor on virtual time that runs the simulated pods;
// it must be set (app/ chooses it: the sim backend's virtual_executor_factory()).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "backends/stepped_executor.h"
#include "base/time.h"
#include "scheduler/plan.h"
#include "scheduler/scheduler.h"
#include "scheduler/snapshot.h"

namespace allot {

using CycleObserver = std::function<void(const Snapshot&, const Plan&)>;
using ProgressObserver = std::function<void(int64_t arrived, int64_t total)>;

// What a trace replay asks of the scheduler: its decisions and what the
// guarantee check reads, not what only a person reads (estimated starts; a
// blocked StrictFIFO tail's explanations, named once instead). The report is
// the same as with the default options (trace_replay_test checks it).
inline SchedulerOptions replay_scheduler_options() {
  SchedulerOptions options;
  options.estimate_start_times = false;
  options.explain_blocked_tails = false;
  return options;
}

struct SimulationOptions {
  // Jump over cycles whose plan would be identical to the last one (nothing
  // arrived, finished, stopped or changed health, and no minRuntimeSeconds
  // expired). Turning it off must not change the report (apart from `cycles`).
  bool skip_idle_cycles = true;
  // A simulation that runs more cycles than this fails (resource_exhausted),
  // so that a scheduler bug that preempts in a loop cannot hang the caller.
  int64_t max_cycles = 10'000'000;
  SchedulerOptions scheduler;
  // The backend's latencies (a Scenario's podStartLatency and podStopLatency,
  // which run_simulation() takes from the Scenario): see VirtualWork.
  Duration pod_start_latency;
  // A start latency per priority class name, in place of pod_start_latency
  // for that class's workloads; a name the policy lacks fails the run.
  std::map<std::string, Duration> pod_start_latency_by_class;
  std::optional<Duration> pod_stop_latency;
  SteppedExecutorFactory executor;
  CycleObserver on_cycle;
  ProgressObserver on_progress;
};

}  // namespace allot
