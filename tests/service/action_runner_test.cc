// ActionRunner: each workload's actions reach the executor in the order they
// were decided, whichever thread carries them out; other workloads' actions
// do not wait for them.
#include "service/control/action_runner.h"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <string>
#include <thread>
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

// An executor whose hand_over() waits until release(): what it was asked, in
// order (a handover recorded when it returns), and on which threads.
class HeldHandoverExecutor final : public Executor {
 public:
  void launch(const WorkloadLaunch& launch) override {
    record("launch " + std::to_string(launch.workload.value()));
  }
  void stop(WorkloadId workload, Duration /*grace*/) override {
    record("stop " + std::to_string(workload.value()));
  }
  bool hand_over(const WorkloadLaunch& launch, const std::vector<WorkloadId>& /*after*/) override {
    std::unique_lock lock(mu_);
    released_.wait(lock, [&] { return release_; });
    calls_.push_back("hand_over " + std::to_string(launch.workload.value()));
    hand_over_thread_ = std::this_thread::get_id();
    changed_.notify_all();
    return true;
  }
  Result<std::string> read_log(PodId /*pod*/, int64_t /*offset*/, int64_t /*max*/) override {
    return std::string();
  }
  [[nodiscard]] std::string log_location(PodId /*pod*/) const override { return {}; }

  void release() {
    std::lock_guard lock(mu_);
    release_ = true;
    released_.notify_all();
  }
  // The calls once there are `count` of them (or after 10 s).
  std::vector<std::string> calls_once(size_t count) {
    std::unique_lock lock(mu_);
    changed_.wait_for(lock, std::chrono::seconds(10), [&] { return calls_.size() >= count; });
    return calls_;
  }
  std::thread::id hand_over_thread() {
    std::lock_guard lock(mu_);
    return hand_over_thread_;
  }

 private:
  void record(std::string call) {
    std::lock_guard lock(mu_);
    calls_.push_back(std::move(call));
    changed_.notify_all();
  }
  std::mutex mu_;
  std::condition_variable released_;
  std::condition_variable changed_;
  bool release_ = false;
  std::vector<std::string> calls_;
  std::thread::id hand_over_thread_;
};

Actions handover_of(uint64_t id, HandoverKind kind) {
  Actions actions;
  actions.handovers.push_back({launch_of(id), {WorkloadId(id + 100)}, kind});
  return actions;
}

// A turnover's handover (Slurm: an sbatch) never holds up the caller of
// carry_out(), the admission loop: it is carried out on the runner's thread,
// and its workload's launch, decided after it, waits for it and follows it.
TEST(ActionRunnerTest, ATurnoversHandoverIsCarriedOutOnTheRunnersThreadBeforeItsWorkloadsLaunch) {
  HeldHandoverExecutor executor;
  LoopSignal signal;
  ActionRunner runner(executor, signal);
  std::future<void> carried = std::async(std::launch::async, [&] {
    runner.carry_out(runner.sequence(handover_of(1, HandoverKind::kTurnover)));
  });
  const bool returned = carried.wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  EXPECT_TRUE(returned) << "carry_out() waited for a turnover's handover";
  if (!returned) {
    executor.release();
    carried.wait();
    return;
  }
  Actions launches;
  launches.launches.push_back(launch_of(1));
  launches.launches.push_back(launch_of(2));
  runner.carry_out(runner.sequence(launches));
  EXPECT_EQ(executor.calls_once(1), (std::vector<std::string>{"launch 2"}))
      << "workload 2 waits for nothing; workload 1's launch waits for its handover";
  executor.release();
  EXPECT_EQ(executor.calls_once(3),
            (std::vector<std::string>{"launch 2", "hand_over 1", "launch 1"}));
  EXPECT_NE(executor.hand_over_thread(), std::this_thread::get_id());
}

// An executor whose hand_over() waits (up to 5 s) until `wanted` handovers
// are under way at once, and keeps the most it saw.
class ConcurrentHandoverExecutor final : public Executor {
 public:
  explicit ConcurrentHandoverExecutor(int wanted) : wanted_(wanted) {}
  void launch(const WorkloadLaunch& /*launch*/) override {}
  void stop(WorkloadId /*workload*/, Duration /*grace*/) override {}
  bool hand_over(const WorkloadLaunch& /*launch*/,
                 const std::vector<WorkloadId>& /*after*/) override {
    std::unique_lock lock(mu_);
    most_ = std::max(most_, ++under_way_);
    changed_.notify_all();
    changed_.wait_for(lock, std::chrono::seconds(5), [&] { return most_ >= wanted_; });
    --under_way_;
    ++done_;
    changed_.notify_all();
    return true;
  }
  Result<std::string> read_log(PodId /*pod*/, int64_t /*offset*/, int64_t /*max*/) override {
    return std::string();
  }
  [[nodiscard]] std::string log_location(PodId /*pod*/) const override { return {}; }
  // The most handovers under way at once, once `count` are done (or after 30 s).
  int most_once_done(int count) {
    std::unique_lock lock(mu_);
    changed_.wait_for(lock, std::chrono::seconds(30), [&] { return done_ >= count; });
    return most_;
  }

 private:
  const int wanted_;
  std::mutex mu_;
  std::condition_variable changed_;
  int under_way_ = 0;
  int most_ = 0;
  int done_ = 0;
};

// The turnovers' handovers of one change (a cycle's promises, one sbatch
// each) are carried out side by side: one at a time fell behind the jobs
// they follow (docs/slurm.md, Turnover (c)).
TEST(ActionRunnerTest, TheTurnoversHandoversOfAChangeAreCarriedOutFourAtOnce) {
  ConcurrentHandoverExecutor executor(4);
  LoopSignal signal;
  ActionRunner runner(executor, signal);
  Actions change;
  for (uint64_t id = 1; id <= 6; ++id) {
    change.handovers.push_back({launch_of(id), {WorkloadId(id + 100)}, HandoverKind::kTurnover});
  }
  runner.carry_out(runner.sequence(change));
  EXPECT_EQ(executor.most_once_done(6), 4);
}

// A reclaim's handover is carried out by carry_out() itself, before the
// stops of the same change (its job must wait in Slurm while its victims run).
TEST(ActionRunnerTest, AReclaimsHandoverIsCarriedOutBeforeTheStopsOfItsChange) {
  HeldHandoverExecutor executor;
  executor.release();
  LoopSignal signal;
  ActionRunner runner(executor, signal);
  Actions change = handover_of(1, HandoverKind::kReclaim);
  change.stops.push_back({WorkloadId(101), Duration::seconds(1)});
  runner.carry_out(runner.sequence(change));
  EXPECT_EQ(executor.calls_once(2), (std::vector<std::string>{"hand_over 1", "stop 101"}));
  EXPECT_EQ(executor.hand_over_thread(), std::this_thread::get_id());
}

}  // namespace
}  // namespace allot::testing
