// The governed cluster that allot-report-bench, allot-metering-bench and
// allot-metrics-bench share (issue 14's figures): the policy of 1,000 teams
// x 4 flavors, each flavor a NodePool of 250 nodes of 8 GPUs, and an executor
// that runs nothing, so that admitted work stays admitted; plus the process's
// CPU time, which other work on a shared machine inflates less than wall time.
//
// Contract: bench_policy_yaml() is a pure function of its spec (manifests as
// `allot apply` takes them); IdleExecutor launches and stops nothing and has
// no logs; process_cpu_ms() reads CLOCK_PROCESS_CPUTIME_ID (all threads).
#pragma once

#include <string>

#include "backends/executor.h"

namespace allot::bench {

struct BenchPolicySpec {
  int teams = 1000;
  int flavors = 4;
  int cohorts = 1;  // team t is in cohort-(t % cohorts)
  // Each team's quota in every flavor (a manifest's `resources:` value).
  std::string nominal = "{gpu: {nominal: 8}, cpu: {nominal: 128}, memory: {nominal: 1Ti}}";
};

// A Cluster "c" (backend local), PriorityClass "batch" (10), flavors
// flavor-0.. priced 2.5 USD a GPU-hour and 0.05 a CPU-hour, with their pools,
// the cohorts and the teams team-0.. .
std::string bench_policy_yaml(const BenchPolicySpec& spec);

// Launches nothing and reports nothing: admitted work stays admitted.
class IdleExecutor final : public Executor {
 public:
  void launch(const WorkloadLaunch& /*launch*/) override {}
  void stop(WorkloadId /*workload*/, Duration /*grace*/) override {}
  Result<std::string> read_log(PodId /*pod*/, int64_t /*offset*/, int64_t /*max*/) override {
    return std::string();
  }
  [[nodiscard]] std::string log_location(PodId /*pod*/) const override { return ""; }
};

// The CPU time this process (all its threads) has used, in milliseconds.
double process_cpu_ms();

}  // namespace allot::bench
