// ScaleReport: the figures of the scale test and the goals of the issue they
// are held against, printed as one JSON object or as a readable table.
//
// Contract: a plain value filled by run_scale(); printing reads it only.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/plan_summary.h"
#include "bench/scale_config.h"

namespace allot::bench {

struct ScaleReport {
  ScaleConfig config;
  int64_t total_gpus = 0;
  double setup_ms = 0;  // policy, compile and workload generation (not a goal)

  // One plan() over the fresh state: nothing admitted, everything pending.
  std::vector<double> full_pass_runs_ms;
  double full_pass_ms = 0;      // median
  double full_pass_cpu_ms = 0;  // median thread CPU time (robust on a shared machine)
  int64_t admissions_first_pass = 0;
  int64_t admitted_gpus_first_pass = 0;
  double admissions_per_s = 0;
  PlanSummary first_pass;

  // One plan() after the first pass's admissions started (the cluster is full).
  std::vector<double> steady_pass_runs_ms;
  double steady_pass_ms = 0;  // median
  double steady_pass_cpu_ms = 0;
  int64_t steady_admitted = 0;
  int64_t steady_pending = 0;
  int64_t steady_admissions = 0;
  int64_t steady_preemptions = 0;
  PlanSummary steady;
  // The steady pass again from team queues and facts kept from the cycle
  // before (scheduler/pending_queues.h), each run first updating them for 1%
  // of pending work (as if it had arrived since): its wall time, and whether
  // its plan's digest is the steady pass's.
  std::vector<double> steady_kept_pass_runs_ms;
  double steady_kept_pass_ms = 0;  // median
  double steady_kept_pass_cpu_ms = 0;
  bool steady_kept_pass_identical = false;

  // plan() for one urgent 64-GPU gang over the full cluster.
  int32_t preemption_runs = 0;
  double preemption_p50_ms = 0;
  double preemption_p99_ms = 0;
  double preemption_max_ms = 0;
  double preemption_p99_cpu_ms = 0;
  int32_t preemption_runs_without_victims = 0;
  double preemption_victims_mean = 0;
  uint64_t preemption_digest = 0;  // plan_digest() chained over the runs' plans

  double snapshot_bytes_per_pending = 0;
  double plan_peak_bytes_per_pending = 0;
  double bytes_per_pending = 0;

  double pass_3000_ms = 0;  // median, for the comparison with Slurm
  double pass_3000_cpu_ms = 0;
};

struct Goal {
  std::string name;
  std::string op;  // ">=" or "<="
  double goal = 0;
  double measured = 0;
  [[nodiscard]] bool met() const { return op == ">=" ? measured >= goal : measured <= goal; }
};

// The goals, with the report's figures.
std::vector<Goal> goals_of(const ScaleReport& report);

void print_json(const ScaleReport& report, std::FILE* out);
void print_table(const ScaleReport& report, std::FILE* out);

}  // namespace allot::bench
