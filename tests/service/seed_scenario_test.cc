#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "scenario_fixture.h"
#include "service/simulation/simulation_runner.h"

namespace allot {
namespace {

using testing::record_of;
using testing::virtual_options;

constexpr double kCycleS = 1.0;
constexpr double kGraceS = 30.0;  // batch's preemptionGracePeriod

class SeedScenario : public ::testing::Test {
 protected:
  // The simulation runs once for the suite.
  static void SetUpTestSuite() {
    suite_scenario = testing::load_example("seed-reclaim");
    testing::PlanInvariants invariants(suite_scenario.policy);
    SimulationOptions options = virtual_options();
    invariants.attach(options);
    Result<SimulationReport> report =
        run_simulation(suite_scenario.policy, suite_scenario.scenario, options);
    ASSERT_TRUE(report.ok()) << report.status().to_string();
    suite_violations = invariants.violations();
    suite_report = *report;
  }
  void SetUp() override {
    ASSERT_TRUE(suite_report.has_value());
    ASSERT_TRUE(suite_violations.empty()) << suite_violations.front();
  }

  static inline testing::LoadedScenario suite_scenario;
  static inline std::optional<SimulationReport> suite_report;
  static inline std::vector<std::string> suite_violations;
};

TEST_F(SeedScenario, ResearchFillsTheIdleClusterFirst) {
  for (const WorkloadRecord& record : suite_report->workloads) {
    if (record.namespace_name == "research") {
      EXPECT_EQ(record.admitted_s, 0.0) << record.name;
    }
  }
}

TEST_F(SeedScenario, ProductionReclaimsItsQuotaWithinOneCyclePlusTheGracePeriod) {
  for (const char* name : {"llm-pretrain", "eval-1"}) {
    const WorkloadRecord& record = record_of(*suite_report, name);
    ASSERT_TRUE(record.admitted_s.has_value()) << name;
    EXPECT_LE(*record.admitted_s - record.submitted_s, kCycleS + kGraceS) << name;
  }
  int64_t research_preemptions = 0;
  for (const WorkloadRecord& record : suite_report->workloads) {
    if (record.namespace_name == "research") {
      research_preemptions += record.preemptions;
    } else {
      EXPECT_EQ(record.preemptions, 0) << record.name;
    }
  }
  // 72 GPUs reclaimed from 8-GPU sweep workloads at 10m (nine victims), and
  // at 40m eval-2 reclaims the 8 GPUs research took back when eval-1 ended.
  EXPECT_EQ(research_preemptions, 10);
  EXPECT_EQ(suite_report->preemptions, 10);
  const WorkloadRecord& eval_2 = record_of(*suite_report, "eval-2");
  ASSERT_TRUE(eval_2.admitted_s.has_value());
  EXPECT_LE(*eval_2.admitted_s - eval_2.submitted_s, kCycleS + kGraceS);
}

TEST_F(SeedScenario, EverythingFinishesAndPreemptedSweepsResumeFromCheckpoints) {
  EXPECT_TRUE(suite_report->never_admitted.empty());
  for (const WorkloadRecord& record : suite_report->workloads) {
    EXPECT_EQ(record.state, "Succeeded") << record.name;
  }
  // A sweep runs 2h; a preempted one loses no work (checkpointed), so nothing
  // ends later than 2h plus the time production held the GPUs (about 1h).
  EXPECT_GT(suite_report->wall_s, 2 * 3600.0);
  EXPECT_LT(suite_report->wall_s, 3.5 * 3600.0);
  const TeamMetrics& research = testing::team_of(*suite_report, "research");
  EXPECT_GT(research.borrowed_share, 0.0);
}

TEST_F(SeedScenario, SteppingEveryCycleGivesTheSameReport) {
  SimulationOptions every_cycle = virtual_options();
  every_cycle.skip_idle_cycles = false;
  Result<SimulationReport> stepping =
      run_simulation(suite_scenario.policy, suite_scenario.scenario, every_cycle);
  ASSERT_TRUE(stepping.ok()) << stepping.status().to_string();
  EXPECT_GT(stepping->cycles, suite_report->cycles);
  SimulationReport skipping = *suite_report;
  skipping.cycles = stepping->cycles;
  EXPECT_EQ(skipping, *stepping);
}

}  // namespace
}  // namespace allot
