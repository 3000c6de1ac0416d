// ActionRunner: each workload's actions reach the executor in the order they
// were decided, whichever thread carries them out; other workloads' actions
// do not wait for them.
#include "service/control/action_runner.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

WorkloadLaunch launch_of(uint64_t id) {
  WorkloadLaunch launch;
  launch.workload = WorkloadId(id);
  return launch;
}

TEST(ActionRunnerTest, AnActionWaitsForTheEarlierActionOnItsWorkloadOnly) {
  RecordingExecutor executor;
  LoopSignal signal;
  ActionRunner runner(executor, signal);
  Actions launch;
  launch.launches.push_back(launch_of(1));
  Actions stops;
  stops.stops.push_back({WorkloadId(1), Duration()});
  stops.stops.push_back({WorkloadId(2), Duration()});

  const Actions first = runner.sequence(launch);
  const Actions second = runner.sequence(stops);
  // The second change is carried out first (another thread got there first):
  // the stop of workload 1 waits for its launch, and comes right after it.
  runner.carry_out(second);
  EXPECT_EQ(executor.calls, (std::vector<std::string>{"stop 2"}));
  runner.carry_out(first);

  EXPECT_EQ(executor.calls, (std::vector<std::string>{"stop 2", "launch 1", "stop 1"}));
  // Nothing waits any more: a new action on workload 1 is carried out at once.
  Actions again;
  again.stops.push_back({WorkloadId(1), Duration()});
  EXPECT_EQ(runner.sequence(again), again);
}

}  // namespace
}  // namespace allot::testing
