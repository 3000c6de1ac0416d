// StudyOptions: how a policy comparison (policy_comparison.h) replays its
// trace, apart from the jobs and the policies themselves.
//
// Contract: plain value. `cycle` is the scheduling cycle of every run (traces
// are replayed with a coarse cycle; REQUIRES: positive, else the study fails
// with kInvalidArgument). `namespace_prefix` turns trace teams into
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
#include <string>

#include "backends/stepped_executor.h"
#include "base/time.h"

namespace allot {

using PolicyProgressObserver =
    std::function<void(const std::string& policy, int64_t arrived, int64_t total)>;
using Stopwatch = std::function<double()>;

struct StudyOptions {
  Duration cycle = Duration::seconds(10);
  std::string namespace_prefix;
  std::string trace_origin;
  PolicyProgressObserver on_progress;
  Stopwatch stopwatch;
  SteppedExecutorFactory executor;
};

}  // namespace allot
