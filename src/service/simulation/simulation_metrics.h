// Simulation metrics: turns the raw trace of a simulation (when each workload
// arrived, ran and finished) into a SimulationReport (see its definitions).
//
// Contract: pure function of its input; deterministic. All amounts are in the
// primary resource's base units (GPUs or millicores). Thread-compatible.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/time.h"
#include "service/simulation/simulation_report.h"

namespace allot {

// One uninterrupted run of a workload, holding `amount` of the primary resource.
struct RunSegment {
  size_t workload = 0;  // index into SimulationTrace::workloads
  Timestamp start;
  Timestamp end;
  int64_t amount = 0;
};

struct TracedWorkload {
  std::string name;
  std::string namespace_name;
  std::string priority_class;
  size_t team = 0;  // index into SimulationTrace::teams
  Timestamp arrived_at;
  std::optional<Timestamp> first_admitted_at;
  std::optional<Timestamp> finished_at;
  bool withdrawn = false;  // an endpoint replica scaled down (finished_at: when)
  int32_t preemptions = 0;
  int32_t moves = 0;  // of its preemptions, those that moved it (reason Consolidation)
  int32_t restarts = 0;
  Duration lost_work;          // progress of stopped runs not kept by a checkpoint
  int64_t lost_amount_ms = 0;  // the same, times the primary resource it held
  int32_t suspensions = 0;     // a Space's, for being idle
  bool running = false;        // still running when the trace ended
  bool suspended = false;      // a Space suspended (not resumed yet)
};

struct TracedTeam {
  std::string name;
  int64_t nominal = 0;              // of the primary resource, summed over flavors
  int64_t owed_cycles = 0;          // guarantee_tracker.h
  int64_t compliant_cycles = 0;     // guarantee_tracker.h
  int64_t reclaimable_cycles = 0;   // violated, reclaimable (guarantee_tracker.h)
  int64_t beyond_bound_cycles = 0;  // violated, beyond the bound (guarantee_tracker.h)
  int64_t fragmented_cycles = 0;    // violated, fragmented (guarantee_tracker.h)
  double longest_violation_s = 0;   // the longest run of violated cycles (guarantee_tracker.h)
};

struct SimulationTrace {
  std::string primary_resource;
  int64_t capacity = 0;  // of the primary resource, all nodes
  std::vector<TracedTeam> teams;
  std::vector<std::string> class_order;  // priority classes of the policy, in order
  std::vector<TracedWorkload> workloads;
  std::vector<RunSegment> segments;
  Timestamp end;  // virtual time at which the simulation stopped
  int64_t admissions = 0;
  int64_t preemptions = 0;
  int64_t moves = 0;  // preemptions that moved work (reason Consolidation)
  int64_t evictions = 0;
  int64_t suspensions = 0;  // of idle Spaces
  int64_t resumes = 0;
  int64_t cycles = 0;
  // Primary resource x milliseconds of work that stopped runs did not keep
  // (simulation_loop.h), by why they stopped.
  int64_t lost_to_preemption = 0;
  int64_t lost_to_eviction = 0;
};

SimulationReport summarize_simulation(const SimulationTrace& trace);

}  // namespace allot
