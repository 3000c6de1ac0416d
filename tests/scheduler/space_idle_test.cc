// The idle judgement of interactive Spaces (scheduler/space_idle.h) and the
// suspended state of their runs (scheduler/workload_run.h).
#include "scheduler/space_idle.h"

#include <vector>

#include <gtest/gtest.h>

#include "scheduler/workload_run.h"

namespace allot {
namespace {

Timestamp at_s(int64_t seconds) { return Timestamp::from_millis(seconds * 1000); }

ActivitySample cpu_only(int64_t micros) {
  return {.cpu_micros = micros, .heartbeat = std::nullopt};
}

TEST(SpaceIdle, StartCountsAsActivityAndTheTimeoutRunsFromTheLastOne) {
  const SpaceActivity activity = start_activity(at_s(100));
  EXPECT_EQ(idle_deadline(activity, Duration::seconds(60)), at_s(160));
  EXPECT_FALSE(is_idle(activity, Duration::seconds(60), at_s(159)));
  EXPECT_TRUE(is_idle(activity, Duration::seconds(60), at_s(160)));
}

TEST(SpaceIdle, CpuGrowthAboveTheThresholdIsActivityAtTheSampleTime) {
  SpaceActivity activity = start_activity(at_s(0));
  observe_activity(activity, cpu_only(1'000'000), at_s(10));  // baseline only
  EXPECT_EQ(activity.last_active, at_s(0)) << "the first sample sets the baseline";
  observe_activity(activity, cpu_only(1'000'000 + kActiveCpuThresholdMicros), at_s(20));
  EXPECT_EQ(activity.last_active, at_s(0)) << "growth at the threshold is not activity";
  observe_activity(activity, cpu_only(2'000'000), at_s(30));
  EXPECT_EQ(activity.last_active, at_s(30));
  EXPECT_FALSE(is_idle(activity, Duration::seconds(60), at_s(89)));
  EXPECT_TRUE(is_idle(activity, Duration::seconds(60), at_s(90)));
}

TEST(SpaceIdle, SlowSpinningNeverAddsUpToActivity) {
  SpaceActivity activity = start_activity(at_s(0));
  int64_t cpu = 0;
  for (int64_t t = 1; t <= 100; ++t) {
    cpu += kActiveCpuThresholdMicros / 2;
    observe_activity(activity, cpu_only(cpu), at_s(t));
  }
  EXPECT_EQ(activity.last_active, at_s(0));
  EXPECT_TRUE(is_idle(activity, Duration::seconds(60), at_s(100)));
}

TEST(SpaceIdle, HeartbeatMovesTheLastActivityButNeverBackNorIntoTheFuture) {
  SpaceActivity activity = start_activity(at_s(0));
  observe_activity(activity, {.cpu_micros = 0, .heartbeat = at_s(40)}, at_s(50));
  EXPECT_EQ(activity.last_active, at_s(40));
  observe_activity(activity, {.cpu_micros = 0, .heartbeat = at_s(20)}, at_s(60));
  EXPECT_EQ(activity.last_active, at_s(40)) << "an older heartbeat changes nothing";
  observe_activity(activity, {.cpu_micros = 0, .heartbeat = at_s(500)}, at_s(70));
  EXPECT_EQ(activity.last_active, at_s(70)) << "a heartbeat from the future counts as now";
}

TEST(SpaceIdle, ResumedSpaceGoesFirstAmongItsTeamsWaitingWork) {
  const std::vector<Timestamp> waiting = {at_s(50), at_s(30), at_s(90)};
  EXPECT_EQ(resumed_queue_position(at_s(70), waiting), at_s(30) - Duration::millis(1));
  // Already first: it keeps its place.
  EXPECT_EQ(resumed_queue_position(at_s(10), waiting), at_s(10));
  EXPECT_EQ(resumed_queue_position(at_s(70), {}), at_s(70));
  // A tie goes to the resumed space too.
  const std::vector<Timestamp> tie = {at_s(70)};
  EXPECT_EQ(resumed_queue_position(at_s(70), tie), at_s(70) - Duration::millis(1));
}

TEST(SpaceRun, SuspendedRunIsNeitherQueuedNorEndedUntilResumed) {
  WorkloadRun run;
  start_run(run);
  ASSERT_TRUE(request_stop(run, StopCause::kSuspend));
  EXPECT_FALSE(request_stop(run, StopCause::kPreempt)) << "the suspension stands";
  EXPECT_EQ(end_run(run, false), RunEnd::kSuspended);
  EXPECT_TRUE(run.suspended());
  EXPECT_FALSE(run.waiting());
  EXPECT_EQ(run.restarts, 0) << "a suspension is not a restart";
  resume_run(run);
  EXPECT_TRUE(run.waiting());
}

TEST(SpaceRun, CancelOverridesASuspensionInProgress) {
  WorkloadRun run;
  start_run(run);
  ASSERT_TRUE(request_stop(run, StopCause::kSuspend));
  EXPECT_TRUE(request_stop(run, StopCause::kCancel));
  EXPECT_EQ(end_run(run, false), RunEnd::kCancelled);
}

TEST(SpaceRun, SuspendedSpaceCanBeWithdrawn) {
  WorkloadRun run;
  start_run(run);
  request_stop(run, StopCause::kSuspend);
  end_run(run, false);
  withdraw(run);
  EXPECT_EQ(run.state, RunState::kEnded);
}

}  // namespace
}  // namespace allot
