// The simulated backend behind the executor port: what the contract suite
// cannot say about virtual time (when events happen, checkpoints, grace).
#include "backends/sim/virtual_executor.h"

#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace allot::sim {
namespace {

Timestamp executor_at_s(int64_t s) { return Timestamp::epoch() + Duration::seconds(s); }

// Records each event with the executor's time while it is reported.
class TimedLog final : public PodEventSink {
 public:
  void on_pod_event(const PodEvent& event) override {
    events.emplace_back(executor == nullptr ? Timestamp() : executor->now(), event);
  }
  const SteppedExecutor* executor = nullptr;
  std::vector<std::pair<Timestamp, PodEvent>> events;
};

VirtualWork work_of(Duration runtime, bool checkpointed = false) {
  VirtualWork work;
  work.runtime = runtime;
  work.checkpointed = checkpointed;
  return work;
}

WorkloadLaunch gang(uint64_t id, int32_t pods) {
  WorkloadLaunch launch;
  launch.workload = WorkloadId(id);
  for (int32_t i = 0; i < pods; ++i) {
    PlacedPod pod;
    pod.index = i;
    pod.node = NodeId("n");
    launch.pods.push_back(pod);
  }
  return launch;
}

struct Fixture {
  explicit Fixture(VirtualWork work)
      : executor(log, [work](const WorkloadLaunch&) { return work; }) {
    log.executor = &executor;
  }
  std::vector<std::pair<Timestamp, PodEvent>> exits() const {
    std::vector<std::pair<Timestamp, PodEvent>> out;
    for (const auto& entry : log.events) {
      if (entry.second.phase == PodPhase::kExited) out.push_back(entry);
    }
    return out;
  }
  TimedLog log;
  VirtualExecutor executor;
};

TEST(VirtualExecutor, PodsEndWhenTheirWorkIsDoneAndAreReportedAtThatTime) {
  Fixture f(work_of(Duration::seconds(30)));
  f.executor.launch(gang(1, 2));
  EXPECT_EQ(f.executor.next_event_time(), executor_at_s(30));

  f.executor.advance_to(executor_at_s(45));

  ASSERT_EQ(f.exits().size(), 2u);
  for (const auto& [when, event] : f.exits()) {
    EXPECT_EQ(when, executor_at_s(30))
        << "reported at the time it happened, not when time was advanced";
    EXPECT_TRUE(event.succeeded());
  }
  EXPECT_EQ(f.executor.now(), executor_at_s(45));
}

TEST(VirtualExecutor, AStoppedRunEndsAfterItsGraceUnlessItsWorkEndsFirst) {
  Fixture f(work_of(Duration::seconds(100)));
  f.executor.launch(gang(1, 1));
  f.executor.advance_to(executor_at_s(10));
  f.executor.stop(WorkloadId(1), Duration::seconds(5));
  f.executor.advance_to(executor_at_s(60));

  ASSERT_EQ(f.exits().size(), 1u);
  EXPECT_EQ(f.exits()[0].first, executor_at_s(15));
  EXPECT_TRUE(f.exits()[0].second.stopped);
  EXPECT_FALSE(f.exits()[0].second.succeeded());
}

TEST(VirtualExecutor, ACheckpointedWorkloadResumesWhereItWasStopped) {
  Fixture f(work_of(Duration::seconds(100), true));
  f.executor.launch(gang(1, 1));
  f.executor.advance_to(executor_at_s(40));
  f.executor.stop(WorkloadId(1), Duration());
  f.executor.advance_to(executor_at_s(50));
  f.executor.launch(gang(1, 1));

  EXPECT_EQ(f.executor.next_event_time(), executor_at_s(110)) << "60 s of work were left";
}

TEST(VirtualExecutor, WorkWithoutCheckpointsStartsOverAfterAStop) {
  Fixture f(work_of(Duration::seconds(100)));
  f.executor.launch(gang(1, 1));
  f.executor.advance_to(executor_at_s(40));
  f.executor.stop(WorkloadId(1), Duration());
  f.executor.advance_to(executor_at_s(50));
  f.executor.launch(gang(1, 1));

  EXPECT_EQ(f.executor.next_event_time(), executor_at_s(150));
}

TEST(VirtualExecutor, ASuspendedRunKeepsItsProgressWithoutCheckpointsAndOnlyThatRun) {
  Fixture f(work_of(Duration::seconds(100)));
  f.executor.launch(gang(1, 1));
  f.executor.advance_to(executor_at_s(40));
  f.executor.suspend(WorkloadId(1), Duration());
  f.executor.advance_to(executor_at_s(50));
  f.executor.launch(gang(1, 1));
  EXPECT_EQ(f.executor.next_event_time(), executor_at_s(110)) << "60 s of work were left";

  f.executor.advance_to(executor_at_s(70));
  f.executor.stop(WorkloadId(1), Duration());  // a preemption: no checkpoints, all 60 s again
  f.executor.advance_to(executor_at_s(80));
  f.executor.launch(gang(1, 1));
  EXPECT_EQ(f.executor.next_event_time(), executor_at_s(140));
}

TEST(VirtualExecutor, LaunchingARunningWorkloadAgainChangesNothing) {
  Fixture f(work_of(Duration::seconds(10)));
  f.executor.launch(gang(1, 1));
  f.executor.launch(gang(1, 1));
  f.executor.advance_to(executor_at_s(20));

  EXPECT_EQ(f.log.events.size(), 2u) << "one kRunning and one kExited";
}

TEST(VirtualExecutor, TheLogOfALaunchedPodIsEmpty) {
  Fixture f(work_of(Duration::seconds(10)));
  f.executor.launch(gang(1, 1));

  const Result<std::string> log = f.executor.read_log({WorkloadId(1), 0}, 0, 100);
  ASSERT_TRUE(log.ok());
  EXPECT_TRUE(log->empty());
}

}  // namespace
}  // namespace allot::sim
