// ReplayReport: what `allot-bench replay` prints: allotd's figures of a
// scenario run in real time (replay_metrics.h) next to the simulation of the
// same scenario, as one JSON object or a table.
//
// Contract: the JSON object is
//   {"allotd": {"workloads", "finished", "wall_s", "lowest_team_usage", "preemptions"},
//    "simulation": {"workloads", "wall_s", "lowest_team_usage", "preemptions"},
//    "classes": {CLASS: {"allotd_tta_mean_s", "simulation_tta_mean_s"}}}
// with the simulation's definitions (service/simulation/simulation_report.h);
// a class the replay never admitted reads 0 for allotd. The table has one row
// per figure and per class ("tta_mean_s CLASS"), columns allotd and
// simulation; numbers below 10 with 3 decimals, others with 1. Pure
// formatting.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "bench/replay_metrics.h"
#include "service/simulation/simulation_report.h"

namespace allot::bench {

nlohmann::json replay_report_json(const ReplayMetrics& real, const SimulationReport& simulation);

std::string replay_report_table(const nlohmann::json& report);

}  // namespace allot::bench
