// TraceMetrics: what a trace replay compares between policies, overall and
// per team, derived from a SimulationReport.
//
// Contract: pure function of the report and the policy; deterministic.
// Definitions (seconds of virtual time):
// - jobs: workloads replayed; queueing delay: first admission - arrival, over
//   admitted workloads (mean; median and p95 by nearest rank; max);
// - mean_jct_s: completion - arrival, over finished workloads;
// - utilization: overall, the report's (allocated / capacity of the primary
//   resource); per team, its usage (allocation / nominal while it had work);
// - borrowed_gpu_hours: primary-resource hours allocated above nominal;
//   own_gpu_hours: those allocated within nominal (allocated - borrowed);
//   idle_gpu_hours (overall only; 0 per team): capacity hours over the
//   report's wall time that nobody was allocated;
// - cost, borrowed_cost, idle_cost: those hours (own + borrowed, borrowed,
//   idle) x the GPU-hour price, when the policy has one (TraceSummary::
//   gpu_hour_price: every ResourceFlavor with a nonzero gpu price has the
//   same price and currency); unset otherwise (flavors with different prices
//   would need the allocation per flavor, which the report does not keep);
// - preemptions: overall the report's count, per team those its workloads
//   suffered; moves: of those, the preemptions that moved work to other nodes
//   (reason Consolidation, docs/scheduling.md); lost_gpu_hours: the progress
//   of stopped runs (preempted, moved or evicted) that no checkpoint kept,
//   times the primary resource they held, in hours;
// - guarantee_compliance: compliant cycles / owed cycles, per team and over
//   all teams (guarantee_tracker.h); 1.0 when never owed;
//   violated_cycles_reclaimable / violated_cycles_beyond_bound /
//   violated_cycles_fragmented: the owed cycles that were not compliant, by
//   class (guarantee_tracker.h: could a reclaim within Kueue's per-team bound
//   have made room; else would the owed workload fit if every team above its
//   nominal had nothing running); longest_violation_s: the longest run of
//   violated cycles in a row, in seconds (per team; overall the longest).
// Per team, `nominal` and `usage_series` are the report's (GPUs used over
// time, for charts); queue_delays_s holds every admitted workload's queueing
// delay, sorted, for a CDF.
// Teams come in policy order, by Team name; a workload is counted for the
// team whose namespace it has.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "model/policy.h"
#include "service/simulation/simulation_report.h"

namespace allot {

struct TraceMetrics {
  int64_t jobs = 0;
  int64_t finished = 0;
  double mean_queue_s = 0;
  double median_queue_s = 0;
  double p95_queue_s = 0;
  double max_queue_s = 0;
  double mean_jct_s = 0;
  double utilization = 0;
  double borrowed_gpu_hours = 0;
  double own_gpu_hours = 0;
  double idle_gpu_hours = 0;
  std::optional<double> cost;
  std::optional<double> borrowed_cost;
  std::optional<double> idle_cost;
  int64_t preemptions = 0;
  int64_t moves = 0;          // of the preemptions, those that moved work (Consolidation)
  double lost_gpu_hours = 0;  // progress of stopped runs no checkpoint kept, x its GPUs
  double guarantee_compliance = 1.0;
  int64_t violated_cycles_reclaimable = 0;  // see guarantee_tracker.h
  int64_t violated_cycles_beyond_bound = 0;
  int64_t violated_cycles_fragmented = 0;
  double longest_violation_s = 0;  // the longest run of violated cycles (guarantee_tracker.h)

  friend bool operator==(const TraceMetrics&, const TraceMetrics&) = default;
};

struct TeamTraceMetrics {
  std::string team;
  TraceMetrics metrics;
  int64_t nominal = 0;
  std::vector<UsagePoint> usage_series;

  friend bool operator==(const TeamTraceMetrics&, const TeamTraceMetrics&) = default;
};

struct TraceSummary {
  TraceMetrics overall;
  std::vector<TeamTraceMetrics> teams;   // policy order
  std::vector<double> queue_delays_s;    // sorted
  std::optional<double> gpu_hour_price;  // see above
  std::string currency;                  // of the price, "" when none

  friend bool operator==(const TraceSummary&, const TraceSummary&) = default;
};

TraceSummary summarize_trace_run(const SimulationReport& report, const Policy& policy);

}  // namespace allot
