// Issue 12, "Reservations that hold", in the simulator: a gang that needs the
// whole pool arrives into a stream of 1-GPU jobs that declare
// maxRuntimeSeconds 600 (examples/scenarios/gang-reservation.yaml). It starts
// once the work running at its arrival has ended, not when the stream stops.
#include <gtest/gtest.h>

#include "scenario_fixture.h"
#include "service/simulation/simulation_runner.h"

namespace allot {
namespace {

using testing::record_of;
using testing::virtual_options;

TEST(GangReservation, GangStartsOnceTheWorkRunningAtItsArrivalHasEnded) {
  const testing::LoadedScenario scenario = testing::load_example("gang-reservation");
  testing::PlanInvariants invariants(scenario.policy);
  SimulationOptions options = virtual_options();
  invariants.attach(options);
  Result<SimulationReport> report = run_simulation(scenario.policy, scenario.scenario, options);
  ASSERT_TRUE(report.ok()) << report.status().to_string();
  EXPECT_TRUE(invariants.violations().empty()) << invariants.violations().front();
  const WorkloadRecord& gang = record_of(*report, "pretrain");
  ASSERT_TRUE(gang.admitted_s.has_value());
  // The last job admitted before it ends 600 s after its own start; one cycle (1 s) to see it.
  EXPECT_LE(*gang.admitted_s - gang.submitted_s, 601.0);
  EXPECT_GE(*gang.admitted_s - gang.submitted_s, 500.0) << "the pool was busy when it arrived";
  EXPECT_TRUE(report->never_admitted.empty());
  for (const WorkloadRecord& record : report->workloads) {
    EXPECT_EQ(record.state, "Succeeded") << record.name;
    EXPECT_EQ(record.preemptions, 0) << record.name;
  }
}

}  // namespace
}  // namespace allot
