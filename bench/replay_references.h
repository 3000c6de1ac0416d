// ReplayReferences: the scenarios of the simulations `allot-bench replay` puts
// beside allotd's run (replay_report.h), built from what the run measured
// (replay_metrics.h).
//
// Contract (pure; both return nothing when the scenario declares a start
// latency of its own, podStartLatency or podStartLatencyByPriorityClass, or
// when the run measured no held time):
// - scenario_at_start_latency: the scenario with allotd's median held time
//   over all runs (held_beyond_runtime_ms) as podStartLatency.
// - scenario_at_class_latencies: that scenario with, besides, each class's
//   own median held time (class_held_beyond_runtime_ms) in
//   podStartLatencyByPriorityClass; workloads that name no class (allotd's
//   class "") keep the median of all. Nothing when no named class was measured.
// A negative held time (clock skew between allotd's stamps) counts as 0.
#pragma once

#include <optional>

#include "bench/replay_metrics.h"
#include "model/scenario.h"

namespace allot::bench {

std::optional<Scenario> scenario_at_start_latency(const Scenario& scenario,
                                                  const ReplayMetrics& real);

std::optional<Scenario> scenario_at_class_latencies(const Scenario& scenario,
                                                    const ReplayMetrics& real);

}  // namespace allot::bench
