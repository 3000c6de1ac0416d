// A workload's activity as the local executor reads it for idle Spaces
// (pod_activity.h, docs/spaces.md): the CPU time of its pods' real
// processes, and the mtime of the heartbeat file its pods are told about.
#include "backends/local/pod_activity.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

#include "backends/local/local_executor.h"
#include "local/exit_recorder.h"
#include "local/scratch.h"

namespace allot::local {
namespace {

using testing::ExitRecorder;
using testing::ReadySignal;
using testing::ScratchDir;
using testing::shell_pod;
using SteadyClock = std::chrono::steady_clock;

TEST(PodActivity, ProcStatCpuTimeIsReadAfterTheCommandName) {
  ScratchDir scratch;
  std::filesystem::create_directories(scratch.path() + "/proc/42");
  // A command name with spaces and a ')' must not shift the fields.
  std::ofstream(scratch.path() + "/proc/42/stat")
      << "42 (odd) name) S 1 42 42 0 -1 4194304 100 0 0 0 "
      << "300 200 40 60 20 0 1 0 12345 1000 10\n";
  const int64_t ticks = 300 + 200 + 40 + 60;
  EXPECT_EQ(process_cpu_micros(42, scratch.path() + "/proc"),
            ticks * 1'000'000 / ::sysconf(_SC_CLK_TCK));
  EXPECT_EQ(process_cpu_micros(43, scratch.path() + "/proc"), 0) << "gone: nothing";
}

TEST(PodActivity, NothingTracedIsNoReading) {
  EXPECT_EQ(read_pod_activity({}, "/nonexistent"), std::nullopt);
}

class LocalActivityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    LocalExecutorOptions options;
    options.data_dir = scratch_.data_dir();
    options.sink = &exits_;
    options.run_as_team_users = false;
    options.use_cgroups = false;  // the /proc reading
    options.gpus = std::vector<GpuDevice>{};
    executor_ = std::make_unique<LocalExecutor>(options);
  }

  ScratchDir scratch_;
  ExitRecorder exits_;
  std::unique_ptr<LocalExecutor> executor_;
};

TEST_F(LocalActivityTest, CpuTimeOfTheRunningPodAndItsHeartbeatFile) {
  EXPECT_EQ(executor_->activity(WorkloadId(60)), std::nullopt) << "never launched";
  ReadySignal ready(scratch_.path());
  const std::string go = scratch_.path() + "/go";
  // Spins (CPU time) until told to stop, then touches its heartbeat and sleeps.
  PodLaunch pod = shell_pod(60, "a",
                            "echo ready > \"$1\"; while [ ! -e \"$2\" ]; do :; done; "
                            "touch \"$ALLOT_HEARTBEAT_FILE\"; echo touched; exec sleep 60");
  pod.command.push_back("sh");
  pod.command.push_back(ready.path());
  pod.command.push_back(go);
  ASSERT_TRUE(executor_->launch_pod(pod).ok());
  ASSERT_TRUE(ready.wait(std::chrono::seconds(20)));

  const SteadyClock::time_point deadline = SteadyClock::now() + std::chrono::seconds(20);
  std::optional<ActivitySample> sample;
  do {
    sample = executor_->activity(WorkloadId(60));
    ASSERT_TRUE(sample.has_value()) << "its pod runs";
    std::this_thread::yield();
  } while (sample->cpu_micros < 200'000 && SteadyClock::now() < deadline);
  EXPECT_GE(sample->cpu_micros, 200'000) << "the spinning shell's CPU time";
  EXPECT_EQ(sample->heartbeat, std::nullopt) << "not touched yet";

  std::ofstream(go) << "go\n";
  const auto wall_now = [] {
    return Timestamp::from_millis(std::chrono::duration_cast<std::chrono::milliseconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count());
  };
  do {
    sample = executor_->activity(WorkloadId(60));
    std::this_thread::yield();
  } while ((!sample || !sample->heartbeat) && SteadyClock::now() < deadline);
  ASSERT_TRUE(sample.has_value() && sample->heartbeat.has_value()) << "the heartbeat was touched";
  EXPECT_LE(*sample->heartbeat, wall_now());
  EXPECT_GE(*sample->heartbeat, wall_now() - Duration::seconds(30));

  executor_->stop(WorkloadId(60), Duration());
  ASSERT_TRUE(exits_.wait_for(60, 0).has_value());
  EXPECT_EQ(executor_->activity(WorkloadId(60)), std::nullopt) << "no pod runs";
}

}  // namespace
}  // namespace allot::local
