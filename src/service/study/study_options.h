// StudyOptions: how a policy comparison (policy_comparison.h) replays its
// trace, apart from the jobs and the policies themselves.
//
// Contract: plain value. `cycle`, when set, overrides the scheduling cycle of
// every run (positive, else the study fails with kInvalidArgument); unset,
// each policy runs with its own Cluster's scheduling.cycle (run_simulation's
// choice). `load_factor` compresses the trace's inter-arrival times
// (trace_arrivals.h; > 0). `max_unknown_team_share`, when set, fails the study
// (kFailedPrecondition, before any replay) when a policy would skip more than
// that share of the jobs for naming a team it lacks; unset, any number is
// skipped and counted. `namespace_prefix` turns trace teams into
// namespaces (trace_arrivals.h). `trace_origin` names the trace in errors
// about its jobs (the edge passes the file's path). `on_progress` is called
// while a policy replays, with its name, the jobs arrived so far and the
// total. The study reads no clock: `stopwatch`, when set, reads a monotonic
// clock in seconds, injected by the edge; it is read just before and just
// after each simulation and the difference is the run's `runtime_s` (0 when
// unset). `executor` makes the simulator's executor on virtual time
// (SimulationOptions::executor; must be set).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "backends/stepped_executor.h"
#include "base/time.h"

namespace allot {

using PolicyProgressObserver =
    std::function<void(const std::string& policy, int64_t arrived, int64_t total)>;
using Stopwatch = std::function<double()>;

struct StudyOptions {
  std::optional<Duration> cycle;
  double load_factor = 1.0;
  std::optional<double> max_unknown_team_share;
  std::string namespace_prefix;
  std::string trace_origin;
  PolicyProgressObserver on_progress;
  Stopwatch stopwatch;
  SteppedExecutorFactory executor;
};

}  // namespace allot
