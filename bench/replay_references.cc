#include "bench/replay_references.h"

#include <algorithm>
#include <cstdint>

namespace allot::bench {
namespace {

Duration held_time(int64_t held_ms) { return Duration::millis(std::max<int64_t>(held_ms, 0)); }

}  // namespace

std::optional<Scenario> scenario_at_start_latency(const Scenario& scenario,
                                                  const ReplayMetrics& real) {
  if (scenario.pod_start_latency || !scenario.pod_start_latency_by_class.empty() ||
      !real.held_beyond_runtime_ms) {
    return std::nullopt;
  }
  Scenario with_latency = scenario;
  with_latency.pod_start_latency = held_time(*real.held_beyond_runtime_ms);
  return with_latency;
}

std::optional<Scenario> scenario_at_class_latencies(const Scenario& scenario,
                                                    const ReplayMetrics& real) {
  std::optional<Scenario> with_latencies = scenario_at_start_latency(scenario, real);
  if (!with_latencies) return std::nullopt;
  for (const auto& [name, held_ms] : real.class_held_beyond_runtime_ms) {
    if (!name.empty()) with_latencies->pod_start_latency_by_class[name] = held_time(held_ms);
  }
  if (with_latencies->pod_start_latency_by_class.empty()) return std::nullopt;
  return with_latencies;
}

}  // namespace allot::bench
