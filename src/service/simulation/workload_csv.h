// The per-workload CSV of a simulation (`allot simulate --workloads FILE`).
//
// Contract: a header line
//   name,namespace,priority_class,submitted_s,admitted_s,finished_s,preemptions,state
// then one line per workload in arrival order; times in seconds with
// millisecond precision, empty when the event never happened; fields that
// contain a comma, quote or newline are quoted (RFC 4180). Deterministic.
#pragma once

#include <string>

#include "service/simulation/simulation_report.h"

namespace allot {

std::string workloads_csv(const SimulationReport& report);

}  // namespace allot
