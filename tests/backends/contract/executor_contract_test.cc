// The cases of the Executor contract (executor_contract.h).
#include "contract/executor_contract.h"

#include <set>

namespace allot::testing {
namespace {

TEST_P(ExecutorContract, EveryPodIsReportedRunningThenExitedExactlyOnce) {
  const WorkloadLaunch launch = workload(1, 3, {"/bin/true"});

  executor().launch(launch);

  EXPECT_EQ(events_of(launch.workload, PodPhase::kRunning).size(), 3u)
      << "a backend that starts pods itself reports them running before launch() returns";
  settle();
  ASSERT_TRUE(events_.wait_for_exits(launch.workload, 3));
  std::set<int32_t> exited;
  for (const PodEvent& exit : events_of(launch.workload, PodPhase::kExited)) {
    EXPECT_TRUE(exit.succeeded());
    EXPECT_TRUE(exit.launch_error.empty());
    EXPECT_TRUE(exited.insert(exit.pod.index).second) << "pod " << exit.pod.index << " twice";
  }
  EXPECT_EQ(exited, (std::set<int32_t>{0, 1, 2}));
}

TEST_P(ExecutorContract, AFailingPodIsReportedWithItsExitCode) {
  const WorkloadLaunch launch = workload(2, 1, {"/bin/sh", "-c", "exit 3"});

  executor().launch(launch);

  settle();
  ASSERT_TRUE(events_.wait_for_exits(launch.workload, 1));
  const PodEvent exit = events_of(launch.workload, PodPhase::kExited).at(0);
  EXPECT_EQ(exit.exit_code, 3);
  EXPECT_FALSE(exit.succeeded());
}

TEST_P(ExecutorContract, APodThatCannotStartIsReportedExitedWithWhyAndNeverRunning) {
  WorkloadLaunch launch = workload(3, 2, {});  // no command and no sleep: cannot become a process

  executor().launch(launch);

  settle();
  ASSERT_TRUE(events_.wait_for_exits(launch.workload, 2));
  EXPECT_TRUE(events_of(launch.workload, PodPhase::kRunning).empty());
  for (const PodEvent& exit : events_of(launch.workload, PodPhase::kExited)) {
    EXPECT_EQ(exit.exit_code, 127);
    EXPECT_FALSE(exit.launch_error.empty());
  }
}

TEST_P(ExecutorContract, StopEndsEveryPodOfTheWorkloadAsStopped) {
  const WorkloadLaunch launch = workload(4, 2, {"/bin/sleep", "60"});
  executor().launch(launch);
  ASSERT_EQ(events_of(launch.workload, PodPhase::kRunning).size(), 2u);

  executor().stop(launch.workload, Duration());

  settle();
  ASSERT_TRUE(events_.wait_for_exits(launch.workload, 2));
  for (const PodEvent& exit : events_of(launch.workload, PodPhase::kExited)) {
    EXPECT_TRUE(exit.stopped);
  }
}

TEST_P(ExecutorContract, StoppingAnUnknownWorkloadDoesNothing) {
  executor().stop(WorkloadId(999), Duration());
  settle();

  EXPECT_TRUE(events_.events().empty());
}

TEST_P(ExecutorContract, TheLogOfAPodThatNeverRanIsNotFound) {
  EXPECT_EQ(executor().read_log({WorkloadId(998), 0}, 0, 100).status().code(),
            ErrorCode::kNotFound);
}

}  // namespace
}  // namespace allot::testing
