// Kueue's scheduler performance test ("baseline") replayed in allot. The goals
// are those of the issue: a quarter of Kueue's times to admission, a wall time
// close to the 66s physical floor, and every team well served.
#include <optional>

#include <gtest/gtest.h>

#include "scenario_fixture.h"
#include "service/simulation_runner.h"

namespace allot {
namespace {

class KueueBaseline : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    const testing::LoadedScenario loaded = testing::load_example("kueue-baseline");
    testing::PlanInvariants invariants(loaded.policy);
    SimulationOptions options;
    invariants.attach(options);
    Result<SimulationReport> report = run_simulation(loaded.policy, loaded.scenario, options);
    ASSERT_TRUE(report.ok()) << report.status().to_string();
    suite_violations = invariants.violations();
    suite_report = *report;
  }
  void SetUp() override { ASSERT_TRUE(suite_report.has_value()); }

  // Shared by the suite: the simulation runs once.
  static inline std::optional<SimulationReport> suite_report;
  static inline std::vector<std::string> suite_violations;
};

TEST_F(KueueBaseline, EveryPlanRespectsTheInvariants) {
  EXPECT_TRUE(suite_violations.empty()) << suite_violations.front();
}

TEST_F(KueueBaseline, AllFifteenThousandWorkloadsFinish) {
  EXPECT_EQ(suite_report->workloads.size(), 15'000u);
  EXPECT_TRUE(suite_report->never_admitted.empty());
}

TEST_F(KueueBaseline, WallTimeIsCloseToThePhysicalFloor) {
  EXPECT_GE(suite_report->wall_s, 66.0);  // 39,600 CPU-seconds on 600 CPUs
  EXPECT_LE(suite_report->wall_s, 75.0);  // Kueue: 351 s
}

TEST_F(KueueBaseline, EveryTeamUsesAtLeastNinetyPercentOfItsQuota) {
  ASSERT_EQ(suite_report->teams.size(), 30u);
  for (const TeamMetrics& team : suite_report->teams) {
    EXPECT_GE(team.usage, 0.90) << team.name;  // Kueue: min 58.7%
  }
}

TEST_F(KueueBaseline, TimeToAdmissionIsAQuarterOfKueues) {
  EXPECT_LE(testing::class_of(*suite_report, "large").tta_mean_s, 1.675);   // Kueue: 6.7 s
  EXPECT_LE(testing::class_of(*suite_report, "medium").tta_mean_s, 19.2);   // Kueue: 76.8 s
  EXPECT_LE(testing::class_of(*suite_report, "small").tta_mean_s, 53.875);  // Kueue: 215.5 s
}

}  // namespace
}  // namespace allot
