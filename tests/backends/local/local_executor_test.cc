#include "backends/local/local_executor.h"

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/local/process_spawn.h"
#include "base/logger.h"
#include "local/exit_recorder.h"
#include "local/scratch.h"

namespace allot::local {
namespace {

using testing::ExitRecorder;
using testing::ReadySignal;
using testing::ScratchDir;
using testing::shell_pod;
using SteadyClock = std::chrono::steady_clock;

class LocalExecutorTest : public ::testing::Test {
 protected:
  LocalExecutorOptions options(bool team_users = false) {
    LocalExecutorOptions out;
    out.data_dir = scratch_.data_dir();
    out.sink = &exits_;
    out.run_as_team_users = team_users;
    out.use_cgroups = false;
    out.gpus = std::vector<GpuDevice>{};
    return out;
  }
  LocalExecutor& executor() {
    if (!executor_) executor_ = std::make_unique<LocalExecutor>(options());
    return *executor_;
  }
  // Launches, waits for the exit and returns it with the pod's log.
  PodExit run(const PodLaunch& pod, std::string* log = nullptr) {
    const Status launched = executor().launch_pod(pod);
    EXPECT_TRUE(launched.ok()) << launched.to_string();
    const std::optional<PodExit> exit = exits_.wait_for(pod.workload_id, pod.pod_index);
    EXPECT_TRUE(exit.has_value()) << "no exit within the deadline";
    if (log != nullptr) *log = read_log(pod.workload_id, pod.pod_index);
    return exit.value_or(PodExit{});
  }
  std::string read_log(uint64_t workload_id, int32_t pod_index) {
    Result<std::string> text =
        executor().read_log({WorkloadId(workload_id), pod_index}, 0, 1 << 20);
    EXPECT_TRUE(text.ok()) << text.status().to_string();
    return text.ok() ? *text : "";
  }

  ScratchDir scratch_;
  ExitRecorder exits_;
  std::unique_ptr<LocalExecutor> executor_;
};

TEST_F(LocalExecutorTest, CgroupsThatCannotBeUsedAreAWarningWithTheReason) {
  MemoryLogger logger;
  LocalExecutorOptions with_cgroups = options();
  with_cgroups.use_cgroups = true;
  with_cgroups.cgroup_root = scratch_.path() + "/no-cgroup-here";
  with_cgroups.logger = &logger;

  const LocalExecutor executor(with_cgroups);

  ASSERT_FALSE(executor.cgroups_enabled());
  bool warned = false;
  for (const LogEntry& entry : logger.entries()) {
    warned = warned || (entry.level == LogLevel::kWarn && entry.field("reason").has_value() &&
                        entry.message.find("cgroups") != std::string::npos);
  }
  EXPECT_TRUE(warned);
}

TEST_F(LocalExecutorTest, ReportsTheExitCodeOfARealProcessOnce) {
  const PodExit exit = run(shell_pod(1, "a", "exit 3"));
  EXPECT_EQ(exit.exit_code, 3);
  EXPECT_EQ(exit.signal, 0);
  EXPECT_FALSE(exit.stopped);
  EXPECT_FALSE(exit.succeeded());
  EXPECT_EQ(exits_.count(1, 0), 1);
  EXPECT_EQ(executor().running_pods(), 0u);
}

// Issue 10, clear errors 13: checkpoint folders were never created (the data
// folder is root's), so a checkpointing pod could not write its checkpoints.
TEST_F(LocalExecutorTest, APodCanWriteItsCheckpointFolderWhichOutlivesTheRun) {
  // Issue 12: in its team's storage, one per workload.
  const std::string folder = executor().checkpoint_dir({TeamId("a"), "ns", "job", WorkloadId(30)});
  EXPECT_EQ(folder, scratch_.data_dir() + "/teams/a/checkpoints/ns/job-30");
  PodLaunch pod = shell_pod(30, "a", "echo step-7 > \"$CKPT/latest\"");
  pod.checkpoint_dir = folder;
  pod.env["CKPT"] = folder;

  const PodExit exit = run(pod);

  EXPECT_TRUE(exit.succeeded()) << read_log(30, 0);
  std::ifstream latest(folder + "/latest");
  std::string text;
  std::getline(latest, text);
  EXPECT_EQ(text, "step-7");
}

TEST_F(LocalExecutorTest, ACheckpointFolderThatIsNotTheWorkloadsOwnIsRefused) {
  for (const std::string& other :
       {scratch_.data_dir() + "/work/../../elsewhere", scratch_.data_dir() + "/checkpoints/ns/job",
        executor().checkpoint_dir({TeamId("b"), "ns", "job", WorkloadId(31)}),
        executor().checkpoint_dir({TeamId("a"), "ns", "job", WorkloadId(32)})}) {
    PodLaunch pod = shell_pod(31, "a", "true");
    pod.checkpoint_dir = other;

    const Status launched = executor().launch_pod(pod);

    EXPECT_EQ(launched.code(), ErrorCode::kInvalidArgument)
        << other << ": " << launched.to_string();
  }
}

// The last checkpoint a workload reports by writing into its folder: the
// newest regular file's time, below too; never through a symbolic link.
TEST_F(LocalExecutorTest, TheLastCheckpointIsTheNewestFileInTheFolder) {
  const std::string folder = executor().checkpoint_dir({TeamId("a"), "ns", "job", WorkloadId(33)});
  PodLaunch pod = shell_pod(33, "a",
                            "mkdir -p \"$CKPT/step-2\" && touch -d @1700000000 \"$CKPT/old\" && "
                            "touch -d @1700000100 \"$CKPT/step-2/model\" && "
                            "touch -d @1700000050 \"$CKPT/middle\" && "
                            "ln -s /etc/hostname \"$CKPT/link\"");
  pod.checkpoint_dir = folder;
  pod.env["CKPT"] = folder;
  EXPECT_EQ(executor().last_checkpoint(folder), std::nullopt) << "no folder yet";

  ASSERT_TRUE(run(pod).succeeded()) << read_log(33, 0);

  EXPECT_EQ(executor().last_checkpoint(folder), Timestamp::from_millis(1'700'000'100'000));
  EXPECT_EQ(executor().last_checkpoint(scratch_.data_dir() + "/logs"), std::nullopt)
      << "not a checkpoint folder";
}

TEST_F(LocalExecutorTest, LogCapturesStdoutAndStderr) {
  std::string log;
  const PodExit exit = run(shell_pod(2, "a", "echo to-stdout; echo to-stderr >&2"), &log);
  EXPECT_TRUE(exit.succeeded());
  EXPECT_EQ(log, "to-stdout\nto-stderr\n");
  EXPECT_EQ(executor().log_location({WorkloadId(2), 0}), "logs/2/pod-0.log")
      << "relative to the data folder: no absolute server path (issue 10)";
  EXPECT_TRUE(std::filesystem::exists(scratch_.data_dir() + "/logs/2/pod-0.log"));
  Result<std::string> tail = executor().read_log({WorkloadId(2), 0}, 10, 3);
  ASSERT_TRUE(tail.ok());
  EXPECT_EQ(*tail, "to-");
  Result<std::string> past_end = executor().read_log({WorkloadId(2), 0}, 1000, 10);
  ASSERT_TRUE(past_end.ok());
  EXPECT_EQ(*past_end, "");
}

TEST_F(LocalExecutorTest, CommandNotFoundExitsWith127AndSaysWhyInTheLog) {
  PodLaunch pod = shell_pod(3, "a", "");
  pod.command = {"allot-no-such-command", "--flag"};
  std::string log;
  EXPECT_EQ(run(pod, &log).exit_code, 127);
  EXPECT_NE(log.find("allot: cannot execute allot-no-such-command: No such file or directory"),
            std::string::npos)
      << log;

  pod.pod_index = 1;
  pod.command = {"/nonexistent/program"};
  EXPECT_EQ(run(pod, &log).exit_code, 127);
  EXPECT_NE(log.find("cannot execute /nonexistent/program"), std::string::npos) << log;
}

TEST_F(LocalExecutorTest, ASleepingPodIsARealProcessThatSucceeds) {
  PodLaunch pod = shell_pod(4, "a", "");
  pod.command = {"/bin/sleep", "1"};  // long enough to look at it while it runs
  ASSERT_TRUE(executor().launch_pod(pod).ok());
  // A real process, recorded in its pid file while it runs.
  std::ifstream pid_file(executor().layout().pid_path(4, 0));
  pid_t pid = 0;
  ASSERT_TRUE(pid_file >> pid);
  std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
  std::string name;
  ASSERT_TRUE(comm >> name);
  EXPECT_EQ(name, "sleep");
  const std::optional<PodExit> exit = exits_.wait_for(4, 0);
  ASSERT_TRUE(exit.has_value());
  EXPECT_TRUE(exit->succeeded());
  EXPECT_FALSE(std::ifstream(executor().layout().pid_path(4, 0)).good());
}

TEST_F(LocalExecutorTest, EnvironmentIsTheBasePlusThePodsPlusAllotsOwn) {
  ::setenv("ALLOT_TEST_LEAK", "1", 1);
  PodLaunch pod = shell_pod(5, "team-a", "env");
  pod.pod_index = 2;
  pod.gpus = {0, 2};
  pod.env = {{"FOO", "bar"}, {"ALLOT_TEAM", "spoofed"}};
  std::string log;
  EXPECT_TRUE(run(pod, &log).succeeded());
  ::unsetenv("ALLOT_TEST_LEAK");
  for (const std::string& line : std::vector<std::string>{
           "CUDA_VISIBLE_DEVICES=0,2", "FOO=bar", "ALLOT_TEAM=team-a", "ALLOT_POD_INDEX=2",
           "ALLOT_WORKLOAD=job", "ALLOT_WORKLOAD_ID=5", "ALLOT_NAMESPACE=ns", "ALLOT_NODE=node-1",
           "ALLOT_SHARED_DIR=" + scratch_.data_dir() + "/teams/team-a/shared", "LANG=C.UTF-8",
           "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}) {
    EXPECT_NE(log.find(line + "\n"), std::string::npos) << line << " missing from:\n" << log;
  }
  EXPECT_EQ(log.find("ALLOT_TEST_LEAK"), std::string::npos) << log;
  EXPECT_EQ(log.find("spoofed"), std::string::npos) << log;
}

TEST_F(LocalExecutorTest, CpuPodSeesNoGpus) {
  std::string log;
  run(shell_pod(6, "a", "printf '[%s]' \"${CUDA_VISIBLE_DEVICES-unset}\""), &log);
  EXPECT_EQ(log, "[]");
}

TEST_F(LocalExecutorTest, DiscoveredGpusAreNamedByUuid) {
  LocalExecutorOptions with_gpus = options();
  with_gpus.gpus = std::vector<GpuDevice>{{0, "GPU-aaa", "test"}, {1, "GPU-bbb", "test"}};
  executor_ = std::make_unique<LocalExecutor>(with_gpus);
  PodLaunch pod = shell_pod(7, "a", "printf '[%s]' \"$CUDA_VISIBLE_DEVICES\"");
  pod.gpus = {1, 3};  // 3 is beyond the discovered GPUs: passed as declared
  std::string log;
  run(pod, &log);
  EXPECT_EQ(log, "[GPU-bbb,3]");
}

TEST_F(LocalExecutorTest, RunsInItsWorkingDirectory) {
  std::string log;
  PodLaunch pod = shell_pod(8, "a", "pwd");
  pod.workload_name = "train";
  pod.namespace_name = "vision";
  run(pod, &log);
  EXPECT_EQ(log, scratch_.data_dir() + "/work/vision/train-8\n");
}

TEST_F(LocalExecutorTest, StopEndsAPodWithSigtermWithinTheGrace) {
  PodLaunch pod = shell_pod(9, "a", "");
  pod.command = {"/bin/sleep", "60"};
  ASSERT_TRUE(executor().launch_pod(pod).ok());
  const SteadyClock::time_point start = SteadyClock::now();
  executor().stop(WorkloadId(9), Duration::seconds(15));
  const std::optional<PodExit> exit = exits_.wait_for(9, 0);
  ASSERT_TRUE(exit.has_value());
  EXPECT_LT(SteadyClock::now() - start, std::chrono::seconds(10));
  EXPECT_TRUE(exit->stopped);
  EXPECT_EQ(exit->signal, SIGTERM);
  EXPECT_FALSE(exit->succeeded());
}

TEST_F(LocalExecutorTest, PodIgnoringSigtermIsKilledAfterTheGrace) {
  ReadySignal ready(scratch_.path());
  PodLaunch pod =
      shell_pod(10, "a", "trap '' TERM; echo ready > \"$1\"; while :; do sleep 1; done");
  pod.command.push_back("sh");
  pod.command.push_back(ready.path());
  ASSERT_TRUE(executor().launch_pod(pod).ok());
  ASSERT_TRUE(ready.wait(std::chrono::seconds(20)));
  const SteadyClock::time_point start = SteadyClock::now();
  executor().stop(WorkloadId(10), Duration::millis(300));
  const std::optional<PodExit> exit = exits_.wait_for(10, 0);
  ASSERT_TRUE(exit.has_value());
  EXPECT_GE(SteadyClock::now() - start, std::chrono::milliseconds(300));
  EXPECT_TRUE(exit->stopped);
  EXPECT_EQ(exit->signal, SIGKILL);
}

TEST_F(LocalExecutorTest, ZeroGraceKillsAtOnce) {
  ASSERT_TRUE(executor().launch_pod(shell_pod(11, "a", "trap '' TERM; sleep 60")).ok());
  executor().stop(WorkloadId(11), Duration());
  const std::optional<PodExit> exit = exits_.wait_for(11, 0);
  ASSERT_TRUE(exit.has_value());
  EXPECT_EQ(exit->signal, SIGKILL);
  EXPECT_TRUE(exit->stopped);
}

TEST_F(LocalExecutorTest, StopKillsEveryPodOfTheWorkloadAndNoOther) {
  PodLaunch pod = shell_pod(12, "a", "sleep 60");
  for (int32_t index = 0; index < 3; ++index) {
    pod.pod_index = index;
    ASSERT_TRUE(executor().launch_pod(pod).ok());
  }
  PodLaunch other = shell_pod(13, "a", "sleep 60");
  ASSERT_TRUE(executor().launch_pod(other).ok());
  executor().stop(WorkloadId(999), Duration());  // unknown: nothing happens
  executor().stop(WorkloadId(12), Duration::seconds(5));
  for (int32_t index = 0; index < 3; ++index) {
    const std::optional<PodExit> exit = exits_.wait_for(12, index);
    ASSERT_TRUE(exit.has_value());
    EXPECT_TRUE(exit->stopped);
  }
  EXPECT_EQ(exits_.count(13, 0), 0);
  EXPECT_EQ(executor().running_pods(), 1u);
}

TEST_F(LocalExecutorTest, LeftoverProcessesOfAPodAreKilledWhenItEnds) {
  // The pod leaves a background process behind in its process group.
  std::string log;
  run(shell_pod(14, "a", "sleep 60 & echo $!"), &log);
  const pid_t straggler = std::atoi(log.c_str());
  ASSERT_GT(straggler, 0);
  // Already gone, or its pidfd becomes readable when it has ended.
  const int pidfd = open_pidfd(straggler);
  if (pidfd >= 0) {
    pollfd ended{pidfd, POLLIN, 0};
    EXPECT_EQ(::poll(&ended, 1, 20'000), 1) << "the background process still runs";
    ::close(pidfd);
  }
}

TEST_F(LocalExecutorTest, SecondLaunchOfARunningPodIsRefused) {
  const PodLaunch pod = shell_pod(15, "a", "sleep 60");
  ASSERT_TRUE(executor().launch_pod(pod).ok());
  EXPECT_EQ(executor().launch_pod(pod).code(), ErrorCode::kAlreadyExists);
  executor().stop(WorkloadId(15), Duration());
  ASSERT_TRUE(exits_.wait_for(15, 0).has_value());
  EXPECT_TRUE(executor().launch_pod(pod).ok());  // it may run again once it has ended
}

TEST_F(LocalExecutorTest, LaunchesThatCannotBeProcessesAreRejected) {
  PodLaunch pod = shell_pod(16, "a", "");
  pod.command.clear();
  EXPECT_EQ(executor().launch_pod(pod).code(), ErrorCode::kInvalidArgument);
  pod = shell_pod(16, "a", "true");
  pod.env = {{"A=B", "x"}};
  EXPECT_EQ(executor().launch_pod(pod).code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(executor().read_log({WorkloadId(16), 0}, 0, 10).status().code(), ErrorCode::kNotFound);
  EXPECT_EQ(executor().read_log({WorkloadId(16), 0}, -1, 10).status().code(),
            ErrorCode::kInvalidArgument);
}

TEST_F(LocalExecutorTest, DestructorKillsRunningPodsWithoutReportingThem) {
  ASSERT_TRUE(executor().launch_pod(shell_pod(17, "a", "trap '' TERM; sleep 60")).ok());
  std::ifstream pid_file(executor().layout().pid_path(17, 0));
  pid_t pid = 0;
  ASSERT_TRUE(pid_file >> pid);
  executor_.reset();
  EXPECT_EQ(::kill(pid, 0), -1);  // killed and reaped
  EXPECT_EQ(exits_.total(), 0u);
  EXPECT_TRUE(LocalExecutor::kill_stale_pods(scratch_.data_dir()).empty());  // pid file removed
}

TEST_F(LocalExecutorTest, WithoutRootPodsRunAsTheCurrentUser) {
  if (testing::is_root()) GTEST_SKIP() << "as root pods run as team users (TeamIdentityTest)";
  executor_ = std::make_unique<LocalExecutor>(options(/*team_users=*/true));
  EXPECT_FALSE(executor().runs_as_team_users());
  std::string log;
  EXPECT_TRUE(run(shell_pod(19, "a", "id -u"), &log).succeeded());
  EXPECT_EQ(log, std::to_string(::getuid()) + "\n");
}

TEST_F(LocalExecutorTest, UnusableCgroupRootIsReportedAndPodsStillRun) {
  LocalExecutorOptions with_cgroups = options();
  with_cgroups.use_cgroups = true;
  with_cgroups.cgroup_root = scratch_.path() + "/not-a-cgroup/allot";
  executor_ = std::make_unique<LocalExecutor>(with_cgroups);
  EXPECT_FALSE(executor().cgroups_enabled());
  EXPECT_FALSE(executor().cgroups_reason().empty());
  EXPECT_TRUE(run(shell_pod(18, "a", "true")).succeeded());
}

}  // namespace
}  // namespace allot::local
