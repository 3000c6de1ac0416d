// ReplayWorkload: the Workload that `allot-bench replay` submits to allotd
// for one arrival of a scenario.
//
// Contract: the arrival's workload (name, namespace, priority class, pod
// sets, env, ...) whose pods run `sleep N`, a real process that sleeps the
// arrival's runtime and exits 0: `spec.command` is ["sleep", N] with N in
// seconds, fractional where the runtime is not whole ("12.5", "0.25"; GNU
// sleep accepts both), whatever command the scenario gave; with latencies, a
// shell around it (replay_command). Pure.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/time.h"
#include "model/scenario.h"
#include "service/simulation/arrival_stream.h"

namespace allot::bench {

// The backend latencies a replay adds to its real pods (a Scenario's
// podStartLatency, or its class's podStartLatencyByPriorityClass, and
// podStopLatency, which the simulator models).
struct PodLatencies {
  Duration start;                // the pod sleeps this long before its work
  std::optional<Duration> stop;  // on SIGTERM it takes this long to exit
};

// The latencies of a workload of `priority_class` in `scenario`.
PodLatencies pod_latencies_of(const Scenario& scenario, const std::string& priority_class);

// Seconds as `sleep` takes them: "12", "12.5", "0.001" (milliseconds kept,
// trailing zeros dropped). REQUIRES: duration >= 0.
std::string sleep_seconds(Duration duration);

// The pods' command: ["sleep", N] without latencies; with them, a POSIX sh
// script that sleeps the start latency, then N, and on SIGTERM (the stop the
// executor sends first; its grace period still bounds it with SIGKILL) sleeps
// the stop latency before exiting with 143.
std::vector<std::string> replay_command(Duration runtime, const PodLatencies& latencies);

// The JSON body of POST /api/v1/namespaces/{ns}/workloads.
std::string replay_workload_body(const Arrival& arrival, const PodLatencies& latencies = {});

}  // namespace allot::bench
