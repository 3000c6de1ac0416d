#include <gtest/gtest.h>

#include "scenario_fixture.h"
#include "service/simulation/simulation_runner.h"

namespace allot {
namespace {

using testing::parse_scenario;
using testing::record_of;
using testing::virtual_options;

// A 16-GPU gang on both nodes of a pool; node pool-1 fails at 20s and comes
// back at 30s. A second 16-GPU gang that arrived at 5s must not overtake the
// evicted gang, which keeps its original place in the queue (arrival at 0s).
std::string node_failure_scenario(bool checkpointed) {
  return std::string(testing::kTwoNodePool) + R"(
apiVersion: allot/v1
kind: Team
metadata: {name: alpha}
spec:
  quota: [{flavor: h100, resources: {gpu: {nominal: 16}}}]
---
apiVersion: allot/v1
kind: Scenario
metadata: {name: node-failure}
spec:
  cycle: 1s
  workloads:
    - {at: 0s, name: gang, namespace: alpha, priorityClass: normal, runtime: 100s,
       podSets: [{count: 2, resources: {gpu: 8}}])" +
         (checkpointed ? ", checkpoint: {env: CKPT}}" : "}") + R"(
    - {at: 5s, name: later, namespace: alpha, priorityClass: normal, runtime: 10s,
       podSets: [{count: 2, resources: {gpu: 8}}]}
  nodeEvents:
    - {at: 20s, node: pool-1, healthy: false}
    - {at: 30s, node: pool-1, healthy: true}
)";
}

TEST(SimulationNodeFailure, EvictedWorkloadResumesFromItsCheckpointAtItsOriginalPlace) {
  const testing::LoadedScenario loaded = parse_scenario(node_failure_scenario(true));
  testing::PlanInvariants invariants(loaded.policy);
  SimulationOptions options = virtual_options();
  invariants.attach(options);
  Result<SimulationReport> report = run_simulation(loaded.policy, loaded.scenario, options);
  ASSERT_TRUE(report.ok()) << report.status().to_string();
  EXPECT_TRUE(invariants.violations().empty()) << invariants.violations().front();

  const WorkloadRecord& gang = record_of(*report, "gang");
  const WorkloadRecord& later = record_of(*report, "later");
  EXPECT_EQ(report->evictions, 1);
  EXPECT_EQ(gang.restarts, 1);
  EXPECT_EQ(gang.preemptions, 0);
  EXPECT_EQ(gang.admitted_s, 0.0);  // first admission
  // Evicted at 20s with 80s left; readmitted when the node is back at 30s.
  EXPECT_EQ(gang.finished_s, 110.0);
  EXPECT_EQ(later.admitted_s, 110.0);  // never ahead of the requeued gang
  EXPECT_EQ(later.finished_s, 120.0);
}

TEST(SimulationNodeFailure, EvictedWorkloadWithoutCheckpointStartsOver) {
  const testing::LoadedScenario loaded = parse_scenario(node_failure_scenario(false));
  Result<SimulationReport> report =
      run_simulation(loaded.policy, loaded.scenario, virtual_options());
  ASSERT_TRUE(report.ok()) << report.status().to_string();
  const WorkloadRecord& gang = record_of(*report, "gang");
  EXPECT_EQ(gang.restarts, 1);
  EXPECT_EQ(gang.finished_s, 130.0);
  EXPECT_EQ(record_of(*report, "later").admitted_s, 130.0);
}

TEST(SimulationNodeFailure, UnknownNodeInAnEventIsAnError) {
  testing::LoadedScenario loaded = parse_scenario(node_failure_scenario(true));
  loaded.scenario.node_events[0].node = "pool-9";
  Result<SimulationReport> report =
      run_simulation(loaded.policy, loaded.scenario, virtual_options());
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), ErrorCode::kNotFound);
  EXPECT_NE(report.status().message().find("pool-9"), std::string::npos);
}

}  // namespace
}  // namespace allot
