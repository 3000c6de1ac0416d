// ReplayWorkload: the Workload that `allot-bench replay` submits to allotd
// for one arrival of a scenario.
//
// Contract: the arrival's workload (name, namespace, priority class, pod
// sets, env, ...) whose pods run `sleep N`, a real process that sleeps the
// arrival's runtime and exits 0: `spec.command` is ["sleep", N] with N in
// seconds, fractional where the runtime is not whole ("12.5", "0.25"; GNU
// sleep accepts both), whatever command the scenario gave. Pure.
#pragma once

#include <string>

#include "base/time.h"
#include "service/simulation/arrival_stream.h"

namespace allot::bench {

// Seconds as `sleep` takes them: "12", "12.5", "0.001" (milliseconds kept,
// trailing zeros dropped). REQUIRES: duration >= 0.
std::string sleep_seconds(Duration duration);

// The JSON body of POST /api/v1/namespaces/{ns}/workloads.
std::string replay_workload_body(const Arrival& arrival);

}  // namespace allot::bench
