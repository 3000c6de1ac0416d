// run_simulation: a what-if simulation of a policy on virtual time and
// virtual nodes (DESIGN.md section 5, "simulated"), driving the same Scheduler
// as the server.
//
// Contract:
// - Input: a Policy and either a Scenario or a generic ArrivalStream (a trace)
//   with node health events. The policy is validated and compiled with the
//   nodes of its NodePools; WorkloadIds follow arrival order.
// - The scheduling cycle is the scenario's `cycle`, else the first Cluster's
//   scheduling.cycle, else 1s; it must be positive.
// - Every problem the input can cause is a Status: an invalid policy, a
//   workload the scheduler rejects (the Status names "Workload/<ns>/<name>"),
//   an unknown node in a node event, a start latency for a priority class the
//   policy lacks (named as Scenario.spec.podStartLatencyByPriorityClass.<class>). A run that
//   exceeds SimulationOptions::max_cycles fails with resource_exhausted.
// - Deterministic: equal input and options give equal reports. No clock, no
//   threads, no I/O.
// See simulation_loop.h for the cycle semantics and simulation_report.h for
// what is measured.
#pragma once

#include <optional>
#include <vector>

#include "base/result.h"
#include "base/time.h"
#include "model/policy.h"
#include "model/scenario.h"
#include "service/simulation/arrival_stream.h"
#include "service/simulation/simulation_options.h"
#include "service/simulation/simulation_report.h"

namespace allot {

Result<SimulationReport> run_simulation(const Policy& policy, const Scenario& scenario,
                                        const SimulationOptions& options = {});

// The cycle a run uses: `cycle` when set, else the first Cluster's
// scheduling.cycle, else 1s; kInvalidArgument (naming its source) unless positive.
Result<Duration> simulation_cycle(const Policy& policy, std::optional<Duration> cycle);

// `cycle` unset: the Cluster's scheduling cycle, else 1s.
Result<SimulationReport> run_simulation(const Policy& policy, const ArrivalStream& arrivals,
                                        const std::vector<ScenarioNodeEvent>& node_events,
                                        std::optional<Duration> cycle,
                                        const SimulationOptions& options = {});

}  // namespace allot
