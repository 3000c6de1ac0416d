// How `allot simulate` presents a SimulationReport: one JSON object for
// machines, tables for people.
//
// Contract: the JSON object has exactly these top-level keys:
//   wall_s, utilization, admissions, preemptions, evictions, cycles,
//   primary_resource, runtime_s, never_admitted (a count),
//   teams {NAME: {usage, mean_wait_s, p95_wait_s, max_wait_s, borrowed_share, jobs}},
//   classes {NAME: {tta_mean_s, jobs}}.
// `runtime_s` is the real time the run took, measured by the caller.
// Pure formatting: no I/O.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "service/simulation/simulation_report.h"

namespace allot::cli {

nlohmann::json simulation_json(const SimulationReport& report, double runtime_s);
std::string simulation_table(const SimulationReport& report, double runtime_s);

}  // namespace allot::cli
