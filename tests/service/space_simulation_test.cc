// Issue 12, "Interactive spaces", in the simulator: an idle Space is
// suspended idleTimeoutSeconds after its last activity, its quota goes to the
// work that waits for it, and a resumed Space goes to the front of its team's
// queue (examples/scenarios/space-*.yaml, docs/spaces.md).
#include <gtest/gtest.h>

#include "scenario_fixture.h"
#include "service/simulation/simulation_runner.h"

namespace allot {
namespace {

using testing::record_of;
using testing::virtual_options;

Result<SimulationReport> simulate(const testing::LoadedScenario& loaded,
                                  testing::PlanInvariants& invariants) {
  SimulationOptions options = virtual_options();
  invariants.attach(options);
  return run_simulation(loaded.policy, loaded.scenario, options);
}

TEST(SpaceSimulation, SuspendedSpaceReleasesItsQuotaToTheWaitingJob) {
  const testing::LoadedScenario loaded = testing::load_example("space-suspend-frees-quota");
  testing::PlanInvariants invariants(loaded.policy);
  const Result<SimulationReport> report = simulate(loaded, invariants);
  ASSERT_TRUE(report.ok()) << report.status().to_string();
  EXPECT_TRUE(invariants.violations().empty()) << invariants.violations().front();
  const WorkloadRecord& notebook = record_of(*report, "notebook");
  EXPECT_EQ(notebook.state, "Suspended");
  EXPECT_EQ(notebook.suspensions, 1);
  EXPECT_EQ(notebook.preemptions, 0);
  const WorkloadRecord& train = record_of(*report, "train");
  ASSERT_TRUE(train.admitted_s.has_value());
  // Active until 20m, idle for 600 s: stopped at 30m with a 30 s grace period.
  EXPECT_GE(*train.admitted_s, 30 * 60 + 30);
  EXPECT_LE(*train.admitted_s, 30 * 60 + 31);
  EXPECT_EQ(train.state, "Succeeded");
  EXPECT_EQ(report->suspensions, 1);
  EXPECT_EQ(report->resumes, 0);
  EXPECT_TRUE(report->never_admitted.empty()) << "a suspended Space is not 'never admitted'";
  // Suspended time costs nothing: the node is busy with the notebook until
  // 30m30s, then with the job; were the suspended notebook still charged, the
  // 8-GPU node would be more than fully used.
  EXPECT_LE(report->utilization, 1.0);
  EXPECT_GE(report->utilization, 0.99);
}

TEST(SpaceSimulation, ResumedSpaceGoesBeforeWorkThatArrivedEarlier) {
  const testing::LoadedScenario loaded = testing::load_example("space-resume-front");
  testing::PlanInvariants invariants(loaded.policy);
  const Result<SimulationReport> report = simulate(loaded, invariants);
  ASSERT_TRUE(report.ok()) << report.status().to_string();
  EXPECT_TRUE(invariants.violations().empty()) << invariants.violations().front();
  const WorkloadRecord& notebook = record_of(*report, "notebook");
  const WorkloadRecord& wide = record_of(*report, "wide");
  ASSERT_TRUE(notebook.admitted_s.has_value());
  ASSERT_TRUE(wide.admitted_s.has_value());
  EXPECT_EQ(*notebook.admitted_s, 120.0);  // started in the 2 free GPUs at its arrival
  // At 30m the freed 6 GPUs go to the resumed notebook first; wide waits for
  // the notebook's second suspension (idle at 33m, stopped by 33m30s).
  EXPECT_GE(*wide.admitted_s, 33 * 60 + 30) << "wide started before the resumed notebook";
  EXPECT_LE(*wide.admitted_s, 33 * 60 + 31);
  EXPECT_GE(notebook.suspensions, 2);
  EXPECT_GE(report->resumes, 2);
  EXPECT_EQ(notebook.state, "Succeeded");  // its 10 minutes of work, over several runs
  EXPECT_EQ(wide.state, "Succeeded");
  EXPECT_EQ(report->preemptions, 0);
}

}  // namespace
}  // namespace allot
