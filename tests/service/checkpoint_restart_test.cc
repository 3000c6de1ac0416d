// Issue 12, "Checkpoint and resume", in the simulator: a preempted workload
// that checkpoints every interval resumes from its last checkpoint
// (examples/scenarios/checkpoint-restart.yaml), the report counts the work
// thrown away, and the victim order uses the modelled last checkpoint.
#include <string>

#include <gtest/gtest.h>

#include "scenario_fixture.h"
#include "service/simulation/simulation_runner.h"

namespace allot {
namespace {

using testing::record_of;
using testing::virtual_options;

SimulationReport simulate(const testing::LoadedScenario& scenario) {
  testing::PlanInvariants invariants(scenario.policy);
  SimulationOptions options = virtual_options();
  invariants.attach(options);
  Result<SimulationReport> report = run_simulation(scenario.policy, scenario.scenario, options);
  EXPECT_TRUE(report.ok()) << report.status().to_string();
  EXPECT_TRUE(invariants.violations().empty()) << invariants.violations().front();
  return report.ok() ? *report : SimulationReport{};
}

TEST(CheckpointRestart, APreemptedCheckpointingJobResumesFromItsLastCheckpoint) {
  const SimulationReport report = simulate(testing::load_example("checkpoint-restart"));
  const WorkloadRecord& ckpt = record_of(report, "ckpt");
  const WorkloadRecord& plain = record_of(report, "plain");
  const WorkloadRecord& urgent = record_of(report, "urgent");
  EXPECT_EQ(ckpt.preemptions, 1);
  EXPECT_EQ(plain.preemptions, 1);
  EXPECT_EQ(urgent.admitted_s, 1530.0);  // both victims stopped at 25m30s
  ASSERT_TRUE(ckpt.finished_s && plain.finished_s);
  // Both run again when urgent ends; ckpt kept 20m of its 25m30s, plain nothing.
  EXPECT_EQ(*plain.finished_s - *ckpt.finished_s, 1200.0);
  EXPECT_EQ(ckpt.lost_work_s, 330.0);
  EXPECT_EQ(plain.lost_work_s, 1530.0);
  EXPECT_EQ(urgent.lost_work_s, 0.0);
  EXPECT_EQ(report.lost_to_preemption, (330.0 + 1530.0) * 8);
  EXPECT_EQ(report.lost_to_eviction, 0.0);
}

TEST(CheckpointRestart, ContinuousCheckpointsLoseNothing) {
  testing::LoadedScenario scenario = testing::load_example("checkpoint-restart");
  for (ScenarioArrival& workload : scenario.scenario.workloads) {
    if (workload.workload.spec.checkpoint) workload.workload.spec.checkpoint->interval.reset();
  }
  const SimulationReport report = simulate(scenario);
  EXPECT_EQ(record_of(report, "ckpt").lost_work_s, 0.0);
  EXPECT_EQ(*record_of(report, "plain").finished_s - *record_of(report, "ckpt").finished_s, 1530.0);
  EXPECT_EQ(report.lost_to_preemption, 1530.0 * 8);
}

// Two equal-priority jobs on the two nodes: `old` (checkpoints every 10s)
// started at 0s, `young` (none) at 20s. At 35s a high-priority job needs one
// node: old would lose 5s since its checkpoint at 30s, young 15s, so old goes
// although it started first (Kueue's order would take young).
std::string victim_order_scenario(const std::string& old_checkpoint) {
  return std::string(testing::kTwoNodePool) + R"(apiVersion: allot/v1
kind: PriorityClass
metadata: {name: low}
spec: {value: 10, preemptionGracePeriod: 5s}
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
metadata: {name: victim-order}
spec:
  workloads:
    - {at: 0s, name: old, namespace: alpha, priorityClass: low, runtime: 1000s,
       podSets: [{resources: {gpu: 8}}])" +
         old_checkpoint + R"(}
    - {at: 20s, name: young, namespace: alpha, priorityClass: low, runtime: 1000s,
       podSets: [{resources: {gpu: 8}}]}
    - {at: 35s, name: urgent, namespace: alpha, priorityClass: normal, runtime: 10s,
       podSets: [{resources: {gpu: 8}}]}
)";
}

TEST(CheckpointRestart, TheVictimIsTheJobThatLosesLeastSinceItsModelledCheckpoint) {
  const SimulationReport report = simulate(testing::parse_scenario(
      victim_order_scenario(", checkpoint: {env: CKPT, intervalSeconds: 10}")));
  EXPECT_EQ(record_of(report, "old").preemptions, 1);
  EXPECT_EQ(record_of(report, "young").preemptions, 0);
  EXPECT_EQ(record_of(report, "old").lost_work_s, 0.0);  // stopped at 40s, checkpoint at 40s
}

TEST(CheckpointRestart, WithoutCheckpointsTheMostRecentlyStartedJobIsTheVictim) {
  const SimulationReport report = simulate(testing::parse_scenario(victim_order_scenario("")));
  EXPECT_EQ(record_of(report, "old").preemptions, 0);
  EXPECT_EQ(record_of(report, "young").preemptions, 1);
  EXPECT_EQ(record_of(report, "young").lost_work_s, 20.0);  // 20s to 40s
}

}  // namespace
}  // namespace allot
