// SimulationReport: what a simulation measured, overall, per team, per
// priority class and per workload.
//
// Contract: plain values in virtual seconds; two runs of the same input give
// equal reports (operator==). Definitions:
// - wall_s: from the first arrival to the last completion.
// - utilization: allocated / capacity of the primary resource (gpu when any
//   node has GPUs, else cpu) over [first arrival, last completion].
// - admissions: admission decisions carried out, re-admissions included.
// - per team, usage: the team's allocated primary resource divided by its
//   nominal quota (summed over flavors), averaged over the time the team had
//   pending or running work; waits: first admission - arrival, over admitted
//   workloads; borrowed_share: the share of the team's allocated
//   resource-time that lay above its nominal quota; borrowed_hours: that
//   resource-time itself, in resource-hours (GPU-hours when gpu is primary);
//   allocated_hours: all of the team's allocated resource-time, in hours.
// - idle_hours: capacity x wall_s minus the resource-time allocated over
//   [first arrival, last completion], in resource-hours (0 when wall_s is 0).
// - per class, tta_mean_s: mean time from arrival to first admission.
// - per team, owed_cycles / compliant_cycles / guarantee_compliance, and the
//   violated cycles by class (reclaimable_cycles, beyond_bound_cycles,
//   fragmented_cycles): see
//   guarantee_tracker.h (compliance is 1.0 when the team was never owed);
//   overall, the sums over teams and their ratio.
// - per team, usage_series: mean allocation of the primary resource in at
//   most 500 equal buckets over [first arrival, end] (usage_series.h).
// - lost_to_preemption / lost_to_eviction: primary resource (base units) x seconds of
//   progress that stopped runs threw away (not kept by a checkpoint; see
//   model/checkpoint_progress.h); per workload, lost_work_s in seconds.
// Allocation is counted while work runs (admission to completion or stop).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace allot {

// Mean allocation during the time bucket starting at t_s (virtual seconds).
struct UsagePoint {
  double t_s = 0;
  double used = 0;

  friend bool operator==(const UsagePoint&, const UsagePoint&) = default;
};

struct TeamMetrics {
  std::string name;
  double usage = 0;
  double mean_wait_s = 0;
  double p95_wait_s = 0;
  double max_wait_s = 0;
  double borrowed_share = 0;
  double borrowed_hours = 0;   // primary resource x hours allocated above nominal
  double allocated_hours = 0;  // primary resource x hours allocated
  int64_t jobs = 0;            // workloads submitted by the team
  int64_t nominal = 0;         // of the primary resource, summed over flavors
  int64_t owed_cycles = 0;
  int64_t compliant_cycles = 0;
  int64_t reclaimable_cycles = 0;  // violated cycles by class (guarantee_tracker.h)
  int64_t beyond_bound_cycles = 0;
  int64_t fragmented_cycles = 0;
  double longest_violation_s = 0;  // the longest run of violated cycles, in seconds
  double guarantee_compliance = 1.0;
  std::vector<UsagePoint> usage_series;

  friend bool operator==(const TeamMetrics&, const TeamMetrics&) = default;
};

struct ClassMetrics {
  std::string name;  // the workload's priorityClass ("" when it named none)
  double tta_mean_s = 0;
  int64_t jobs = 0;

  friend bool operator==(const ClassMetrics&, const ClassMetrics&) = default;
};

// One workload's fate; the `--workloads` CSV has one row per record.
struct WorkloadRecord {
  std::string name;
  std::string namespace_name;
  std::string priority_class;
  double submitted_s = 0;
  std::optional<double> admitted_s;  // first admission
  std::optional<double> finished_s;
  int32_t preemptions = 0;
  int32_t moves = 0;         // preemptions that moved it (reason Consolidation)
  int32_t restarts = 0;      // runs stopped before completion (preemptions, evictions)
  double lost_work_s = 0;    // work redone: progress of stopped runs no checkpoint kept
  double lost_amount_s = 0;  // the same, times the primary resource it held
  int32_t suspensions = 0;   // a Space's, for being idle (docs/spaces.md)
  // "Succeeded", "Pending", "Running", "Suspended" or "ScaledDown" (endpoint replica)
  std::string state;

  friend bool operator==(const WorkloadRecord&, const WorkloadRecord&) = default;
};

struct SimulationReport {
  std::string primary_resource;  // "gpu" or "cpu"
  double wall_s = 0;
  double utilization = 0;
  double idle_hours = 0;  // primary resource x hours not allocated, over wall_s
  int64_t admissions = 0;
  int64_t preemptions = 0;
  int64_t moves = 0;  // preemptions that moved work (reason Consolidation)
  int64_t evictions = 0;
  // Work lost, in primary-resource seconds (GPU-seconds when gpu is primary):
  // the progress of preempted (evicted) runs that no checkpoint kept.
  double lost_to_preemption = 0;
  double lost_to_eviction = 0;
  int64_t suspensions = 0;          // idle Spaces suspended (their time suspended costs nothing)
  int64_t resumes = 0;              // suspended Spaces resumed
  int64_t cycles = 0;               // scheduling cycles run (fewer when idle cycles are skipped)
  int64_t owed_cycles = 0;          // summed over teams
  int64_t compliant_cycles = 0;     // summed over teams
  int64_t reclaimable_cycles = 0;   // summed over teams
  int64_t beyond_bound_cycles = 0;  // summed over teams
  int64_t fragmented_cycles = 0;    // summed over teams
  double longest_violation_s = 0;   // the longest of the teams'
  double guarantee_compliance = 1.0;
  std::vector<TeamMetrics> teams;         // in policy order
  std::vector<ClassMetrics> classes;      // policy order, then others by name
  std::vector<WorkloadRecord> workloads;  // in arrival order
  // "namespace/name" of workloads still pending when the simulation ended
  // (nothing left could ever admit them).
  std::vector<std::string> never_admitted;

  friend bool operator==(const SimulationReport&, const SimulationReport&) = default;
};

}  // namespace allot
