#include "bench/replay_workload.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "api/workload_json.h"

namespace allot::bench {

PodLatencies pod_latencies_of(const Scenario& scenario, const std::string& priority_class) {
  PodLatencies latencies{scenario.pod_start_latency.value_or(Duration()),
                         scenario.pod_stop_latency};
  const auto by_class = scenario.pod_start_latency_by_class.find(priority_class);
  if (by_class != scenario.pod_start_latency_by_class.end()) latencies.start = by_class->second;
  return latencies;
}

std::string sleep_seconds(Duration duration) {
  const int64_t ms = duration.ms();
  std::string text = std::to_string(ms / 1000);
  if (const int64_t fraction = ms % 1000; fraction != 0) {
    std::string digits = std::to_string(1000 + fraction).substr(1);  // "005" for 5 ms
    while (digits.back() == '0') digits.pop_back();
    text += "." + digits;
  }
  return text;
}

std::vector<std::string> replay_command(Duration runtime, const PodLatencies& latencies) {
  const bool starts_late = latencies.start > Duration();
  if (!starts_late && !latencies.stop) return {"sleep", sleep_seconds(runtime)};
  std::string script;
  if (latencies.stop) {
    script += "trap 'sleep " + sleep_seconds(std::max(*latencies.stop, Duration())) +
              "; exit 143' TERM; ";
  }
  // In the background, so that the trap runs as soon as the signal comes.
  if (starts_late) script += "sleep " + sleep_seconds(latencies.start) + " & wait $!; ";
  script += "sleep " + sleep_seconds(runtime) + " & wait $!";
  return {"sh", "-c", script};
}

std::string replay_workload_body(const Arrival& arrival, const PodLatencies& latencies) {
  WorkloadSpec spec = arrival.workload.spec;
  spec.command = replay_command(arrival.runtime, latencies);
  nlohmann::json spec_json = workload_spec_to_json(spec);
  const nlohmann::json body = {
      {"apiVersion", "allot/v1"},
      {"kind", "Workload"},
      {"metadata",
       {{"name", arrival.workload.meta.name}, {"namespace", arrival.workload.meta.namespace_name}}},
      {"spec", std::move(spec_json)}};
  return body.dump();
}

}  // namespace allot::bench
