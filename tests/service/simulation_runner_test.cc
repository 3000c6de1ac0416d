#include "service/simulation/simulation_runner.h"

#include <gtest/gtest.h>

#include "scenario_fixture.h"
#include "service/simulation/workload_csv.h"

namespace allot {
namespace {

using testing::LoadedScenario;
using testing::parse_scenario;
using testing::PlanInvariants;
using testing::record_of;
using testing::team_of;
using testing::virtual_options;

// Shared policy head: one flavor, `NODES` nodes of 8 GPUs, cycle 1s.
constexpr std::string_view kTwoNodes = R"(
apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: h100}
spec: {}
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: main}
spec: {scheduling: {cycle: 1s}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: pool}
spec: {cluster: main, flavor: h100, count: 2, resources: {gpu: 8, cpu: 64, memory: 512Gi}}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: normal}
spec: {value: 100}
)";

// One team owning both nodes; three jobs: the third waits for the first.
const std::string kThreeJobs = std::string(kTwoNodes) + R"(
---
apiVersion: allot/v1
kind: Team
metadata: {name: alpha}
spec:
  quota: [{flavor: h100, resources: {gpu: {nominal: 16}}}]
---
apiVersion: allot/v1
kind: Scenario
metadata: {name: three-jobs}
spec:
  workloads:
    - {at: 0s, name: a, namespace: alpha, priorityClass: normal, runtime: 10s,
       podSets: [{resources: {gpu: 8}}]}
    - {at: 0s, name: b, namespace: alpha, priorityClass: normal, runtime: 20s,
       podSets: [{resources: {gpu: 8}}]}
    - {at: 500ms, name: c, namespace: alpha, priorityClass: normal, runtime: 5s,
       podSets: [{resources: {gpu: 8}}]}
)";

// A low-priority job that may not be preempted during its first 10s, and a
// high-priority one that arrives at 2s; the victim gets 5s to stop.
const std::string kMinRuntime = std::string(kTwoNodes) + R"(
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: low}
spec: {value: 10, minRuntimeSeconds: 10, preemptionGracePeriod: 5s}
---
apiVersion: allot/v1
kind: Team
metadata: {name: alpha}
spec:
  quota: [{flavor: h100, resources: {gpu: {nominal: 16}}}]
  preemption: {withinTeam: LowerPriority}
---
apiVersion: allot/v1
kind: Scenario
metadata: {name: min-runtime}
spec:
  workloads:
    - {at: 0s, name: low-job, namespace: alpha, priorityClass: low, runtime: 100s,
       podSets: [{count: 2, resources: {gpu: 8}}]}
    - {at: 2s, name: high-job, namespace: alpha, priorityClass: normal, runtime: 10s,
       podSets: [{count: 2, resources: {gpu: 8}}]}
)";

SimulationReport run_ok(const LoadedScenario& loaded,
                        const SimulationOptions& options = virtual_options()) {
  Result<SimulationReport> report = run_simulation(loaded.policy, loaded.scenario, options);
  EXPECT_TRUE(report.ok()) << report.status().to_string();
  return report.ok() ? *report : SimulationReport{};
}

SimulationReport without_cycle_count(SimulationReport report) {
  report.cycles = 0;
  return report;
}

TEST(SimulationRunner, ThreeJobsOnTwoNodesHaveTheExpectedTimes) {
  const LoadedScenario loaded = parse_scenario(kThreeJobs);
  PlanInvariants invariants(loaded.policy);
  SimulationOptions options = virtual_options();
  invariants.attach(options);
  const SimulationReport report = run_ok(loaded, options);
  EXPECT_TRUE(invariants.violations().empty()) << invariants.violations().front();

  const WorkloadRecord& a = record_of(report, "a");
  const WorkloadRecord& b = record_of(report, "b");
  const WorkloadRecord& c = record_of(report, "c");
  EXPECT_EQ(a.admitted_s, 0.0);
  EXPECT_EQ(a.finished_s, 10.0);
  EXPECT_EQ(b.admitted_s, 0.0);
  EXPECT_EQ(b.finished_s, 20.0);
  EXPECT_EQ(c.submitted_s, 0.5);
  EXPECT_EQ(c.admitted_s, 10.0);  // the first cycle after a completes
  EXPECT_EQ(c.finished_s, 15.0);
  for (const WorkloadRecord& record : report.workloads) {
    EXPECT_EQ(record.state, "Succeeded");
    EXPECT_EQ(record.preemptions, 0);
  }

  EXPECT_EQ(report.primary_resource, "gpu");
  EXPECT_DOUBLE_EQ(report.wall_s, 20.0);
  EXPECT_DOUBLE_EQ(report.utilization, (8.0 * 10 + 8.0 * 20 + 8.0 * 5) / (16.0 * 20));
  EXPECT_EQ(report.admissions, 3);
  EXPECT_EQ(report.preemptions, 0);
  EXPECT_TRUE(report.never_admitted.empty());
  // Cycles at 0 (a, b), 1 (c waits), 10 (c), 15 and 20 (completions): idle ones skipped.
  EXPECT_EQ(report.cycles, 5);

  const TeamMetrics& alpha = team_of(report, "alpha");
  EXPECT_EQ(alpha.jobs, 3);
  EXPECT_DOUBLE_EQ(alpha.usage, 280.0 / 16.0 / 20.0);
  EXPECT_DOUBLE_EQ(alpha.mean_wait_s, 9.5 / 3);
  EXPECT_DOUBLE_EQ(alpha.p95_wait_s, 9.5);
  EXPECT_DOUBLE_EQ(alpha.max_wait_s, 9.5);
  EXPECT_DOUBLE_EQ(alpha.borrowed_share, 0.0);
  const ClassMetrics& normal = testing::class_of(report, "normal");
  EXPECT_EQ(normal.jobs, 3);
  EXPECT_DOUBLE_EQ(normal.tta_mean_s, 9.5 / 3);
}

TEST(SimulationRunner, SkippingIdleCyclesDoesNotChangeTheResults) {
  for (const std::string& yaml : {kThreeJobs, kMinRuntime}) {
    const LoadedScenario loaded = parse_scenario(yaml);
    SimulationOptions every_cycle = virtual_options();
    every_cycle.skip_idle_cycles = false;
    const SimulationReport skipping = run_ok(loaded);
    const SimulationReport stepping = run_ok(loaded, every_cycle);
    EXPECT_LT(skipping.cycles, stepping.cycles);
    EXPECT_EQ(without_cycle_count(skipping), without_cycle_count(stepping));
  }
}

TEST(SimulationRunner, TwoRunsGiveIdenticalReportsAndCsv) {
  const LoadedScenario loaded = parse_scenario(kMinRuntime);
  const SimulationReport first = run_ok(loaded);
  const SimulationReport second = run_ok(loaded);
  EXPECT_EQ(first, second);
  EXPECT_EQ(workloads_csv(first), workloads_csv(second));
}

TEST(SimulationRunner, PreemptionWaitsForMinRuntimeThenTheGracePeriod) {
  const LoadedScenario loaded = parse_scenario(kMinRuntime);
  PlanInvariants invariants(loaded.policy);
  SimulationOptions options = virtual_options();
  invariants.attach(options);
  const SimulationReport report = run_ok(loaded, options);
  EXPECT_TRUE(invariants.violations().empty()) << invariants.violations().front();

  const WorkloadRecord& low = record_of(report, "low-job");
  const WorkloadRecord& high = record_of(report, "high-job");
  // Preempted at 10s (admitted at 0s + minRuntime 10s), stopped at 15s (grace 5s).
  EXPECT_EQ(high.admitted_s, 15.0);
  EXPECT_EQ(high.finished_s, 25.0);
  EXPECT_EQ(low.admitted_s, 0.0);
  EXPECT_EQ(low.preemptions, 1);
  EXPECT_EQ(low.restarts, 1);
  // No checkpoint: the 15s it ran are lost; it restarts from zero at 25s.
  EXPECT_EQ(low.finished_s, 125.0);
  EXPECT_EQ(report.preemptions, 1);
  EXPECT_EQ(report.admissions, 3);
}

// kMinRuntime with the Scenario's pod latencies (and `by_class`, when given,
// as podStartLatencyByPriorityClass).
std::string with_latencies(const std::string& start, const std::string& stop,
                           const std::string& by_class = "") {
  std::string yaml = kMinRuntime;
  const std::string head = "metadata: {name: min-runtime}\nspec:\n";
  const size_t at = yaml.find(head);
  EXPECT_NE(at, std::string::npos);
  yaml.insert(at + head.size(),
              "  podStartLatency: " + start + "\n  podStopLatency: " + stop + "\n" +
                  (by_class.empty() ? "" : "  podStartLatencyByPriorityClass: " + by_class + "\n"));
  return yaml;
}

TEST(SimulationRunner, PodStartAndStopLatenciesDelayWorkAndStops) {
  const LoadedScenario loaded = parse_scenario(with_latencies("1s", "2s"));
  ASSERT_EQ(loaded.scenario.pod_start_latency, Duration::seconds(1));
  PlanInvariants invariants(loaded.policy);
  SimulationOptions options = virtual_options();
  invariants.attach(options);
  const SimulationReport report = run_ok(loaded, options);
  EXPECT_TRUE(invariants.violations().empty()) << invariants.violations().front();

  const WorkloadRecord& low = record_of(report, "low-job");
  const WorkloadRecord& high = record_of(report, "high-job");
  // Preempted at 10s; its pods take 2s of their 5s grace to stop.
  EXPECT_EQ(high.admitted_s, 12.0);
  EXPECT_EQ(high.finished_s, 23.0);  // 1s to start, then 10s of work
  EXPECT_EQ(low.preemptions, 1);
  // Restarted at 23s: it pays the start latency again, then its 100s.
  EXPECT_EQ(low.finished_s, 124.0);
  EXPECT_EQ(report.preemptions, 1);
}

TEST(SimulationRunner, AClassStartLatencyReplacesTheScenariosForThatClassOnly) {
  const std::string yaml = with_latencies("1s", "2s", "{normal: 3s}");
  const LoadedScenario loaded = parse_scenario(yaml);
  PlanInvariants invariants(loaded.policy);
  SimulationOptions options = virtual_options();
  invariants.attach(options);
  const SimulationReport report = run_ok(loaded, options);
  EXPECT_TRUE(invariants.violations().empty()) << invariants.violations().front();

  const WorkloadRecord& low = record_of(report, "low-job");
  const WorkloadRecord& high = record_of(report, "high-job");
  EXPECT_EQ(high.admitted_s, 12.0);
  EXPECT_EQ(high.finished_s, 25.0);  // its class's 3s to start, then 10s of work
  // The low class keeps the Scenario's 1s: restarted at 25s, done at 126s.
  EXPECT_EQ(low.finished_s, 126.0);
}

TEST(SimulationRunner, AStoppedRunLosesItsWorkFromItsClasssStartLatency) {
  const std::string yaml = with_latencies("1s", "2s", "{low: 3s}");
  const SimulationReport report = run_ok(parse_scenario(yaml));
  const WorkloadRecord& low = record_of(report, "low-job");
  // Launched at 0s, working from 3s, preempted at 10s, its pods gone at 12s
  // (2s to stop): 9s of work lost.
  EXPECT_EQ(low.lost_work_s, 9.0);
  EXPECT_EQ(record_of(report, "high-job").finished_s, 23.0);  // the Scenario's 1s
  EXPECT_EQ(low.finished_s, 126.0);                           // restarted at 23s: 3s + 100s
}

TEST(SimulationRunner, AWorkloadNamingNoClassTakesTheScenariosStartLatency) {
  // low-job names no class: the scheduler ranks it in the lowest class (low),
  // whose start latency it does not take.
  std::string yaml = with_latencies("1s", "2s", "{low: 3s}");
  const std::string named = "namespace: alpha, priorityClass: low,";
  ASSERT_NE(yaml.find(named), std::string::npos);
  yaml.replace(yaml.find(named), named.size(), "namespace: alpha,");
  const SimulationReport report = run_ok(parse_scenario(yaml));
  EXPECT_EQ(record_of(report, "low-job").lost_work_s, 11.0);  // working from 1s to 12s
}

TEST(SimulationRunner, AStartLatencyForAClassThePolicyLacksFailsTheRun) {
  const std::string yaml = with_latencies("1s", "2s", "{urgent: 3s}");
  const LoadedScenario loaded = parse_scenario(yaml);
  const Result<SimulationReport> report =
      run_simulation(loaded.policy, loaded.scenario, virtual_options());
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(report.status().details(), "Scenario.spec.podStartLatencyByPriorityClass.urgent");
  EXPECT_NE(report.status().message().find("no PriorityClass named 'urgent'"), std::string::npos)
      << report.status().message();
}

TEST(SimulationRunner, PodStopLatencyIsBoundedByTheGracePeriod) {
  const LoadedScenario loaded = parse_scenario(with_latencies("0s", "30s"));
  const SimulationReport report = run_ok(loaded);
  // The 5s grace period ends the stop: the pods are killed at 15s.
  EXPECT_EQ(record_of(report, "high-job").admitted_s, 15.0);
  EXPECT_EQ(record_of(report, "low-job").finished_s, 125.0);
}

}  // namespace
}  // namespace allot
