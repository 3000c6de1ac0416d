// ReplayReport: what `allot-bench replay` prints: allotd's figures of a
// scenario run in real time (replay_metrics.h) next to the simulation of the
// same scenario, as one JSON object or a table.
//
// Contract: the JSON object is
//   {"allotd": {"workloads", "finished", "wall_s", "lowest_team_usage", "preemptions"},
//    "simulation": {"workloads", "wall_s", "lowest_team_usage", "preemptions"},
//    "classes": {CLASS: {"allotd_tta_mean_s", "simulation_tta_mean_s",
//                        "allotd_held_beyond_runtime_ms" when measured,
//                        "sim_at_latency_tta_mean_s" with the second simulation,
//                        "sim_at_class_latencies_tta_mean_s" with the third}},
//    "held_beyond_runtime_ms": allotd's median (replay_metrics.h) or null,
//    "simulation_at_start_latency": {"start_latency_ms", "workloads", "wall_s",
//                                    "lowest_team_usage", "preemptions"} or null,
//    "simulation_at_class_latencies": {"start_latency_ms": {CLASS: ms}, "workloads",
//                                      "wall_s", "lowest_team_usage", "preemptions"} or null}
// with the simulation's definitions (service/simulation/simulation_report.h);
// a class the replay never admitted reads 0 for allotd. The second
// simulation, when given, is the same scenario with allotd's
// held_beyond_runtime_ms as the pods' start latency: the reference that does
// not hang on every pod starting and ending on the cycle's grid (docs/benchmarks.md, "Kueue's
// baseline through allotd, fourth step"); the third, each class at its own held time. The
// table has one row per figure and per class ("tta_mean_s CLASS"), columns allotd, simulation
// and, with the second simulation, "sim@latency" (and a row held_beyond_runtime_ms), with the
// third "sim@class" (and a row held_beyond_runtime_ms CLASS per class); numbers below 10 with
// 3 decimals, others with 1. Pure formatting.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/replay_metrics.h"
#include "service/simulation/simulation_report.h"

namespace allot::bench {

// The scenario's own simulation, and the same with allotd's start latency.
struct ReplaySimulations {
  SimulationReport scenario;
  std::optional<SimulationReport> at_start_latency;
  int64_t start_latency_ms = 0;  // what at_start_latency ran with
  std::optional<SimulationReport> at_class_latencies;
  std::map<std::string, int64_t> class_latencies_ms;  // what at_class_latencies ran with
};

nlohmann::json replay_report_json(const ReplayMetrics& real, const ReplaySimulations& simulations);

std::string replay_report_table(const nlohmann::json& report);

}  // namespace allot::bench
