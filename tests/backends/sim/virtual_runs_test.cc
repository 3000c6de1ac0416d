#include "backends/sim/virtual_runs.h"

#include <gtest/gtest.h>

namespace allot::sim {
namespace {

Timestamp at_s(int64_t s) { return Timestamp::from_millis(s * 1000); }

TEST(VirtualRuns, IdleExecutorHasNoEvents) {
  VirtualRuns executor;
  EXPECT_EQ(executor.next_event_time(), Timestamp::infinite_future());
  EXPECT_TRUE(executor.take_due(at_s(100)).empty());
  EXPECT_EQ(executor.running_count(), 0u);
}

TEST(VirtualRuns, WorkCompletesAfterItsRemainingDuration) {
  VirtualRuns executor;
  executor.start(SimWorkId(1), Duration::seconds(10), false, at_s(5));
  EXPECT_TRUE(executor.is_running(SimWorkId(1)));
  EXPECT_EQ(executor.next_event_time(), at_s(15));
  EXPECT_TRUE(executor.take_due(at_s(14)).empty());

  const std::vector<SimEvent> events = executor.take_due(at_s(20));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].work, SimWorkId(1));
  EXPECT_EQ(events[0].kind, SimEventKind::kCompleted);
  EXPECT_EQ(events[0].at, at_s(15));  // the exact time, not the time it was noticed
  EXPECT_EQ(events[0].started_at, at_s(5));
  EXPECT_EQ(events[0].remaining, Duration());
  EXPECT_FALSE(executor.is_running(SimWorkId(1)));
}

TEST(VirtualRuns, DueEventsComeInTimeThenIdOrder) {
  VirtualRuns executor;
  executor.start(SimWorkId(3), Duration::seconds(2), false, at_s(0));
  executor.start(SimWorkId(2), Duration::seconds(1), false, at_s(0));
  executor.start(SimWorkId(1), Duration::seconds(2), false, at_s(0));
  const std::vector<SimEvent> events = executor.take_due(at_s(2));
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].work, SimWorkId(2));
  EXPECT_EQ(events[1].work, SimWorkId(1));
  EXPECT_EQ(events[2].work, SimWorkId(3));
}

TEST(VirtualRuns, StopTakesEffectAfterTheGracePeriod) {
  VirtualRuns executor;
  executor.start(SimWorkId(1), Duration::seconds(100), false, at_s(0));
  executor.stop(SimWorkId(1), Duration::seconds(30), at_s(10));
  EXPECT_TRUE(executor.is_stopping(SimWorkId(1)));
  EXPECT_EQ(executor.next_event_time(), at_s(40));
  const std::vector<SimEvent> events = executor.take_due(at_s(40));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, SimEventKind::kStopped);
  EXPECT_EQ(events[0].at, at_s(40));
}

TEST(VirtualRuns, WorkThatEndsWithinTheGracePeriodCompletes) {
  VirtualRuns executor;
  executor.start(SimWorkId(1), Duration::seconds(20), false, at_s(0));
  executor.stop(SimWorkId(1), Duration::seconds(30), at_s(10));
  const std::vector<SimEvent> events = executor.take_due(at_s(100));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, SimEventKind::kCompleted);
  EXPECT_EQ(events[0].at, at_s(20));
}

TEST(VirtualRuns, StopAtTheNaturalEndCountsAsCompletion) {
  VirtualRuns executor;
  executor.start(SimWorkId(1), Duration::seconds(20), true, at_s(0));
  executor.stop(SimWorkId(1), Duration::seconds(10), at_s(10));
  const std::vector<SimEvent> events = executor.take_due(at_s(20));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, SimEventKind::kCompleted);
}

TEST(VirtualRuns, CheckpointedWorkKeepsItsProgress) {
  VirtualRuns executor;
  executor.start(SimWorkId(1), Duration::seconds(100), true, at_s(0));
  executor.stop(SimWorkId(1), Duration::seconds(5), at_s(25));
  const std::vector<SimEvent> events = executor.take_due(at_s(30));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, SimEventKind::kStopped);
  EXPECT_EQ(events[0].remaining, Duration::seconds(70));

  executor.start(SimWorkId(1), events[0].remaining, true, at_s(50));
  EXPECT_EQ(executor.next_event_time(), at_s(120));
}

TEST(VirtualRuns, WorkWithoutCheckpointRestartsFromZero) {
  VirtualRuns executor;
  executor.start(SimWorkId(1), Duration::seconds(100), false, at_s(0));
  executor.stop(SimWorkId(1), Duration::seconds(5), at_s(25));
  const std::vector<SimEvent> events = executor.take_due(at_s(30));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].remaining, Duration::seconds(100));
}

TEST(VirtualRuns, ALaterStopCanOnlyBringTheStopEarlier) {
  VirtualRuns executor;
  executor.start(SimWorkId(1), Duration::seconds(100), true, at_s(0));
  executor.stop(SimWorkId(1), Duration::seconds(30), at_s(10));
  executor.stop(SimWorkId(1), Duration::seconds(60), at_s(11));  // later: ignored
  EXPECT_EQ(executor.end_time(SimWorkId(1)), at_s(40));
  executor.stop(SimWorkId(1), Duration(), at_s(12));  // immediate: wins
  EXPECT_EQ(executor.end_time(SimWorkId(1)), at_s(12));
  const std::vector<SimEvent> events = executor.take_due(at_s(12));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].remaining, Duration::seconds(88));
  EXPECT_TRUE(executor.take_due(at_s(100)).empty());
}

TEST(VirtualRuns, ZeroWorkCompletesAtOnce) {
  VirtualRuns executor;
  executor.start(SimWorkId(7), Duration(), false, at_s(3));
  EXPECT_EQ(executor.next_event_time(), at_s(3));
  const std::vector<SimEvent> events = executor.take_due(at_s(3));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, SimEventKind::kCompleted);
}

TEST(VirtualRuns, RemainingWorkShrinksWhileRunning) {
  VirtualRuns executor;
  executor.start(SimWorkId(1), Duration::seconds(10), false, at_s(0));
  EXPECT_EQ(executor.remaining_at(SimWorkId(1), at_s(4)), Duration::seconds(6));
  EXPECT_EQ(executor.remaining_at(SimWorkId(1), at_s(12)), Duration());
}

TEST(VirtualRuns, AStoppedItemCanBeStartedAgain) {
  VirtualRuns executor;
  executor.start(SimWorkId(1), Duration::seconds(10), true, at_s(0));
  executor.stop(SimWorkId(1), Duration(), at_s(4));
  ASSERT_EQ(executor.take_due(at_s(4)).size(), 1u);
  executor.start(SimWorkId(1), Duration::seconds(6), true, at_s(5));
  const std::vector<SimEvent> events = executor.take_due(at_s(11));
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].kind, SimEventKind::kCompleted);
  EXPECT_EQ(events[0].at, at_s(11));
  EXPECT_EQ(events[0].started_at, at_s(5));
}

}  // namespace
}  // namespace allot::sim
