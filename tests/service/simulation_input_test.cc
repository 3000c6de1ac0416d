#include <gtest/gtest.h>

#include "scenario_fixture.h"
#include "service/simulation/simulation_runner.h"

namespace allot {
namespace {

using testing::parse_scenario;
using testing::virtual_options;

const std::string kPolicy = std::string(testing::kTwoNodePool) + R"(
apiVersion: allot/v1
kind: Team
metadata: {name: small}
spec:
  quota: [{flavor: h100, resources: {gpu: {nominal: 8}}}]
)";

std::string with_scenario(std::string_view workloads) {
  return std::string(kPolicy) + R"(
---
apiVersion: allot/v1
kind: Scenario
metadata: {name: s}
spec:
  workloads:
)" + std::string(workloads);
}

TEST(SimulationInput, AWorkloadThePolicyRejectsFailsTheRunNamingIt) {
  const testing::LoadedScenario loaded = parse_scenario(with_scenario(R"(
    - {at: 0s, name: typo, namespace: small, priorityClass: urgent, runtime: 1s,
       podSets: [{resources: {gpu: 1}}]}
)"));
  Result<SimulationReport> report =
      run_simulation(loaded.policy, loaded.scenario, virtual_options());
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().to_string().find("Workload/small/typo"), std::string::npos)
      << report.status().to_string();
}

TEST(SimulationInput, AWorkloadOfAnUnknownNamespaceFailsTheRun) {
  const testing::LoadedScenario loaded = parse_scenario(with_scenario(R"(
    - {at: 0s, name: stray, namespace: nobody, priorityClass: normal, runtime: 1s,
       podSets: [{resources: {gpu: 1}}]}
)"));
  Result<SimulationReport> report =
      run_simulation(loaded.policy, loaded.scenario, virtual_options());
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.status().to_string().find("Workload/nobody/stray"), std::string::npos)
      << report.status().to_string();
}

TEST(SimulationInput, DuplicateWorkloadNamesAreRejected) {
  const testing::LoadedScenario loaded = parse_scenario(with_scenario(R"(
    - {at: 0s, name: twin, namespace: small, priorityClass: normal, runtime: 1s,
       podSets: [{resources: {gpu: 1}}]}
    - {at: 1s, name: twin, namespace: small, priorityClass: normal, runtime: 1s,
       podSets: [{resources: {gpu: 1}}]}
)"));
  Result<SimulationReport> report =
      run_simulation(loaded.policy, loaded.scenario, virtual_options());
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(report.status().message().find("small/twin"), std::string::npos);
}

TEST(SimulationInput, AZeroCycleIsRejected) {
  testing::LoadedScenario loaded = parse_scenario(with_scenario(R"(
    - {at: 0s, name: a, namespace: small, priorityClass: normal, runtime: 1s,
       podSets: [{resources: {gpu: 1}}]}
)"));
  loaded.scenario.cycle = Duration();
  Result<SimulationReport> report =
      run_simulation(loaded.policy, loaded.scenario, virtual_options());
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), ErrorCode::kInvalidArgument);
}

TEST(SimulationInput, WorkloadBeyondItsTeamsQuotaIsReportedAsNeverAdmitted) {
  const testing::LoadedScenario loaded = parse_scenario(with_scenario(R"(
    - {at: 0s, name: fits, namespace: small, priorityClass: normal, runtime: 10s,
       podSets: [{resources: {gpu: 8}}]}
    - {at: 0s, name: too-big, namespace: small, priorityClass: normal, runtime: 10s,
       podSets: [{count: 2, resources: {gpu: 8}}]}
)"));
  SimulationOptions every_cycle = virtual_options();
  every_cycle.skip_idle_cycles = false;  // the guard must also stop a stepping run
  for (const SimulationOptions& options : {virtual_options(), every_cycle}) {
    Result<SimulationReport> report = run_simulation(loaded.policy, loaded.scenario, options);
    ASSERT_TRUE(report.ok()) << report.status().to_string();
    EXPECT_EQ(report->never_admitted, std::vector<std::string>{"small/too-big"});
    const WorkloadRecord& too_big = testing::record_of(*report, "too-big");
    EXPECT_EQ(too_big.state, "Pending");
    EXPECT_FALSE(too_big.admitted_s.has_value());
    EXPECT_FALSE(too_big.finished_s.has_value());
    EXPECT_EQ(testing::record_of(*report, "fits").state, "Succeeded");
    EXPECT_DOUBLE_EQ(report->wall_s, 10.0);
  }
}

TEST(SimulationInput, AnEmptyScenarioGivesAnEmptyReport) {
  testing::LoadedScenario loaded = parse_scenario(with_scenario("    []\n"));
  Result<SimulationReport> report =
      run_simulation(loaded.policy, loaded.scenario, virtual_options());
  ASSERT_TRUE(report.ok()) << report.status().to_string();
  EXPECT_TRUE(report->workloads.empty());
  EXPECT_EQ(report->wall_s, 0.0);
  EXPECT_EQ(report->cycles, 0);
  ASSERT_EQ(report->teams.size(), 1u);
  EXPECT_EQ(report->teams[0].jobs, 0);
}

TEST(SimulationInput, ARunThatDoesNotSettleFailsInsteadOfHanging) {
  const testing::LoadedScenario loaded = parse_scenario(with_scenario(R"(
    - {at: 0s, name: long, namespace: small, priorityClass: normal, runtime: 1000h,
       podSets: [{resources: {gpu: 8}}]}
    - {at: 0s, name: next, namespace: small, priorityClass: normal, runtime: 1s,
       podSets: [{resources: {gpu: 8}}]}
)"));
  SimulationOptions options = virtual_options();
  options.skip_idle_cycles = false;
  options.max_cycles = 100;
  Result<SimulationReport> report = run_simulation(loaded.policy, loaded.scenario, options);
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), ErrorCode::kResourceExhausted);
}

}  // namespace
}  // namespace allot
