// Issue 10, isolation 8: every process a pod starts stops with it, the ones
// that left its process group (setsid, a double-forked daemon) included, and
// a fork bomb stays under the pod's pids.max. Each test runs with cgroups
// (cgroup v2, or v1 with a freezer: this test host has v1) and through /proc
// alone (no cgroup).
#include <chrono>
#include <csignal>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <dirent.h>
#include <gtest/gtest.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/local/atomic_file.h"
#include "backends/local/local_executor.h"
#include "backends/local/pod_cgroup_pool.h"
#include "backends/local/pod_pid_file.h"
#include "backends/local/pod_trace.h"
#include "backends/local/proc_table.h"
#include "backends/local/process_spawn.h"
#include "local/exit_recorder.h"
#include "local/scratch.h"

namespace allot::local {
namespace {

using testing::ExitRecorder;
using testing::ReadySignal;
using testing::ScratchDir;
using testing::shell_pod;
using SteadyClock = std::chrono::steady_clock;

// The processes whose command line is "sleep <seconds>".
std::vector<pid_t> sleeping_for(const std::string& seconds) {
  std::vector<pid_t> found;
  const std::string wanted = std::string("sleep") + '\0' + seconds + '\0';
  for (const ProcEntry& entry : read_proc_table()) {
    if (entry.zombie) continue;
    const Result<std::string> text =
        read_whole_file("/proc/" + std::to_string(entry.pid) + "/cmdline", 4096);
    if (text.ok() && text->ends_with(wanted)) found.push_back(entry.pid);
  }
  return found;
}

// Polls (bounded) until no "sleep <seconds>" is left; returns those left.
std::vector<pid_t> wait_until_gone(const std::string& seconds) {
  const SteadyClock::time_point deadline = SteadyClock::now() + std::chrono::seconds(10);
  std::vector<pid_t> left = sleeping_for(seconds);
  while (!left.empty() && SteadyClock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    left = sleeping_for(seconds);
  }
  return left;
}

// A marker unique to this test process and call: "sleep 7<pid><n>".
std::string marker(int n) { return "7" + std::to_string(::getpid()) + std::to_string(n); }
// The same, per mode of a parameterised test.
std::string marker(int n, bool with_cgroups) { return marker(n * 2 + (with_cgroups ? 1 : 0)); }

// A pod that escapes its process group twice (setsid, and a daemon whose
// parent exits at once so that it is orphaned in a session of its own), says
// it is ready, then waits (or ends, with `then_exit`).
std::string escaping_script(const std::string& seconds, const std::string& fifo, bool then_exit) {
  return "setsid sleep " + seconds + " & (setsid sh -c 'sleep " + seconds + " & exit 0' &); " +
         "sleep 0.2; echo ready > " + fifo + (then_exit ? "" : "; exec sleep " + seconds);
}

enum class Mode { kCgroups, kProcOnly };

class PodContainmentTest : public ::testing::TestWithParam<Mode> {
 protected:
  void SetUp() override {
    if (!testing::is_root()) GTEST_SKIP() << "needs root (cgroups, audit sessions)";
  }
  void TearDown() override {
    executor_.reset();
    for (const char* controller : {"freezer", "pids", "devices"}) {
      ::rmdir(("/sys/fs/cgroup/" + std::string(controller) + "/" + cgroup_base()).c_str());
    }
    ::rmdir(cgroup_root().c_str());
  }
  static std::string cgroup_base() { return "allot-test-" + std::to_string(::getpid()); }
  static std::string cgroup_root() { return "/sys/fs/cgroup/" + cgroup_base(); }

  LocalExecutorOptions options(int64_t max_pids = 16384) {
    LocalExecutorOptions out;
    out.data_dir = scratch_.data_dir();
    out.sink = &exits_;
    out.run_as_team_users = false;
    out.use_cgroups = GetParam() == Mode::kCgroups;
    out.cgroup_root = cgroup_root();
    out.max_pids_per_pod = max_pids;
    out.gpus = std::vector<GpuDevice>{};
    return out;
  }
  // Skips (saying why) when cgroups are wanted and the host has none usable.
  bool start(const LocalExecutorOptions& with) {
    executor_ = std::make_unique<LocalExecutor>(with);
    if (GetParam() == Mode::kCgroups && !executor_->cgroups_enabled()) {
      std::printf("no usable cgroups on this host: %s\n", executor_->cgroups_reason().c_str());
      return false;
    }
    return true;
  }

  ScratchDir scratch_;
  ExitRecorder exits_;
  std::unique_ptr<LocalExecutor> executor_;
};

TEST_P(PodContainmentTest, SetsidAndDaemonChildrenDieWhenThePodIsCancelled) {
  if (!start(options())) GTEST_SKIP() << "no usable cgroups: " << executor_->cgroups_reason();
  ReadySignal ready(scratch_.path());
  const std::string seconds = marker(1, GetParam() == Mode::kCgroups);
  ASSERT_TRUE(
      executor_->launch_pod(shell_pod(31, "a", escaping_script(seconds, ready.path(), false)))
          .ok());
  ASSERT_TRUE(ready.wait(std::chrono::seconds(10)));
  const std::vector<pid_t> started = sleeping_for(seconds);
  ASSERT_GE(started.size(), 2u);  // the two escapes (and the pod's own sleep)

  executor_->stop(WorkloadId(31), Duration::seconds(1));
  ASSERT_TRUE(exits_.wait_for(31, 0).has_value());
  EXPECT_EQ(wait_until_gone(seconds), std::vector<pid_t>{});
}

TEST_P(PodContainmentTest, WhatAPodLeavesBehindDiesWhenItsMainProcessEnds) {
  if (!start(options())) GTEST_SKIP() << "no usable cgroups: " << executor_->cgroups_reason();
  ReadySignal ready(scratch_.path());
  const std::string seconds = marker(2, GetParam() == Mode::kCgroups);
  ASSERT_TRUE(
      executor_->launch_pod(shell_pod(32, "a", escaping_script(seconds, ready.path(), true))).ok());
  ASSERT_TRUE(ready.wait(std::chrono::seconds(10)));
  const std::optional<PodExit> exit = exits_.wait_for(32, 0);
  ASSERT_TRUE(exit.has_value());
  EXPECT_TRUE(exit->succeeded());
  EXPECT_EQ(wait_until_gone(seconds), std::vector<pid_t>{});
}

// A crashed allotd left a pod behind (its pid file, its escaped processes,
// its leader already gone): the next allotd kills every one of them.
TEST_P(PodContainmentTest, EscapedProcessesOfACrashedAllotdAreKilledAtRestart) {
  const LocalExecutorOptions with = options();
  if (!start(with)) GTEST_SKIP() << "no usable cgroups: " << executor_->cgroups_reason();
  executor_.reset();
  std::unique_ptr<PodCgroupPool> pool =
      GetParam() == Mode::kCgroups ? open_pod_cgroups(with.cgroup_root) : nullptr;
  PodCgroups cgroups;
  if (pool != nullptr) {
    Result<PodCgroups> made = pool->create("crashed-33-0", {});
    ASSERT_TRUE(made.ok()) << made.status().to_string();
    cgroups = *made;
  }
  ReadySignal ready(scratch_.path());
  const std::string seconds = marker(3, GetParam() == Mode::kCgroups);
  SpawnOptions spawn;
  spawn.argv = {"/bin/sh", "-c", escaping_script(seconds, ready.path(), true)};
  spawn.env = {"PATH=/usr/bin:/bin"};
  spawn.cgroup_procs_fds = cgroups.procs_fds;
  spawn.new_audit_session = true;
  Result<SpawnedProcess> spawned = spawn_process(spawn);
  for (const int fd : cgroups.procs_fds) ::close(fd);
  ASSERT_TRUE(spawned.ok());
  PodTrace trace;
  trace.process = {spawned->pid, process_start_ticks(spawned->pid), audit_session_of(spawned->pid)};
  trace.cgroups = cgroups.dirs;
  ::mkdir((scratch_.data_dir() + "/run").c_str(), 0700);
  ASSERT_TRUE(write_pod_pid_file(scratch_.data_dir() + "/run/33-0.pid", trace).ok());
  ASSERT_TRUE(ready.wait(std::chrono::seconds(10)));
  int status = 0;
  ASSERT_EQ(::waitpid(spawned->pid, &status, 0), spawned->pid);  // the leader is gone
  ASSERT_EQ(sleeping_for(seconds).size(), 2u);

  const std::vector<StalePod> stale = LocalExecutor::kill_stale_pods(scratch_.data_dir());
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_TRUE(stale[0].killed) << stale[0].note;
  EXPECT_EQ(wait_until_gone(seconds), std::vector<pid_t>{});
  for (const std::string& dir : cgroups.dirs) {
    EXPECT_NE(::access(dir.c_str(), F_OK), 0) << dir << " is left";
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, PodContainmentTest,
                         ::testing::Values(Mode::kCgroups, Mode::kProcOnly),
                         [](const ::testing::TestParamInfo<Mode>& param) {
                           return param.param == Mode::kCgroups ? "Cgroups" : "ProcOnly";
                         });

// A pod that starts processes without end cannot have more than pids.max at
// once, and all of them stop with it.
TEST(PodPidsLimit, AForkBombStaysUnderItsPodsPidsMax) {
  if (!testing::is_root()) GTEST_SKIP() << "needs root to create cgroups";
  constexpr int64_t kMaxPids = 12;
  ScratchDir scratch;
  ExitRecorder exits;
  const std::string base = "allot-test-bomb-" + std::to_string(::getpid());
  LocalExecutorOptions with;
  with.data_dir = scratch.data_dir();
  with.sink = &exits;
  with.run_as_team_users = false;
  with.cgroup_root = "/sys/fs/cgroup/" + base;
  with.max_pids_per_pod = kMaxPids;
  with.gpus = std::vector<GpuDevice>{};
  {
    LocalExecutor executor(with);
    if (!executor.limits_pids()) {
      std::printf("no pids controller on this host: %s %s\n", executor.cgroups_kind().c_str(),
                  executor.cgroups_reason().c_str());
      GTEST_SKIP() << "no pids controller: " << executor.cgroups_kind() << " "
                   << executor.cgroups_reason();
    }
    ReadySignal ready(scratch.path());
    const std::string seconds = marker(9);
    // 200 attempts; each that the kernel refuses only prints an error.
    const std::string script = "i=0; while [ $i -lt 200 ]; do (sleep " + seconds +
                               " &) 2>/dev/null; i=$((i+1)); done; echo ready > " + ready.path() +
                               "; exec sleep " + seconds;
    ASSERT_TRUE(executor.launch_pod(shell_pod(34, "a", script)).ok());
    ASSERT_TRUE(ready.wait(std::chrono::seconds(30)));
    const size_t alive = sleeping_for(seconds).size();
    EXPECT_LE(alive, static_cast<size_t>(kMaxPids));
    EXPECT_GE(alive, static_cast<size_t>(kMaxPids) - 3);  // it did reach the limit
    executor.stop(WorkloadId(34), Duration::seconds(0));
    ASSERT_TRUE(exits.wait_for(34, 0).has_value());
    EXPECT_EQ(wait_until_gone(seconds), std::vector<pid_t>{});
  }
  for (const char* controller : {"freezer", "pids", "devices"}) {
    ::rmdir(("/sys/fs/cgroup/" + std::string(controller) + "/" + base).c_str());
  }
  ::rmdir(with.cgroup_root.c_str());
}

// A process listed in several cgroups (one per v1 hierarchy) and found in
// /proc gets a SIGTERM once, not once per place: a handler runs once.
// Real-time signals queue instead of merging, so every delivery is counted.
TEST(PodSignal, AnyOtherSignalReachesEachProcessOfThePodOnce) {
  ScratchDir scratch;
  const int counted_signal = SIGRTMIN;
  sigset_t wanted;
  sigemptyset(&wanted);
  sigaddset(&wanted, counted_signal);
  sigset_t previous;
  ASSERT_EQ(::pthread_sigmask(SIG_BLOCK, &wanted, &previous), 0);
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t child = ::fork();
  if (child == 0) {
    [[maybe_unused]] const ssize_t started = ::write(pipe_fds[1], "r", 1);
    int count = 0;
    timespec wait{2, 0};
    while (::sigtimedwait(&wanted, nullptr, &wait) == counted_signal) {
      ++count;
      wait = {0, 300'000'000};
    }
    [[maybe_unused]] const ssize_t told = ::write(pipe_fds[1], &count, sizeof(count));
    ::_exit(0);
  }
  ::pthread_sigmask(SIG_SETMASK, &previous, nullptr);
  ASSERT_GT(child, 0);
  char ready = 0;
  ASSERT_EQ(::read(pipe_fds[0], &ready, 1), 1);
  PodTrace trace;
  for (const char* controller : {"freezer", "pids", "devices"}) {
    const std::string dir = scratch.path() + "/" + controller;
    ASSERT_EQ(::mkdir(dir.c_str(), 0755), 0);
    std::ofstream(dir + "/cgroup.procs") << child << "\n";
    trace.cgroups.push_back(dir);
  }
  signal_pod(trace, counted_signal, false);
  int count = -1;
  ASSERT_EQ(::read(pipe_fds[0], &count, sizeof(count)), static_cast<ssize_t>(sizeof(count)));
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
  int status = 0;
  ::waitpid(child, &status, 0);
  EXPECT_EQ(count, 1);
}

// A leader in a Unix session of its own and, in that session, a process in a
// process group of its own: only a search of /proc finds the second one.
// `outside` is its pid; the caller reaps `leader` (its child).
struct SessionWithStray {
  pid_t leader = -1;
  pid_t outside = -1;
};

SessionWithStray start_session_with_stray() {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return {};
  const pid_t leader = ::fork();
  if (leader == 0) {
    ::setsid();
    if (::fork() == 0) {
      ::setpgid(0, 0);
      // Told only once out of the leader's process group, so that a kill of
      // that group cannot reach it (the leader telling its pid at the fork
      // let the test kill the group before the stray had left it).
      const pid_t self = ::getpid();
      [[maybe_unused]] const ssize_t told = ::write(pipe_fds[1], &self, sizeof(self));
      ::pause();
      ::_exit(0);
    }
    ::pause();
    ::_exit(0);
  }
  SessionWithStray out;
  out.leader = leader;
  if (::read(pipe_fds[0], &out.outside, sizeof(out.outside)) != sizeof(out.outside)) {
    out.outside = -1;
  }
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);
  return out;
}

// Whether `pid` is a live process (not a zombie), polled until `want` or 5 s.
bool alive_becomes(pid_t pid, bool want) {
  const SteadyClock::time_point deadline = SteadyClock::now() + std::chrono::seconds(5);
  while (true) {
    const Result<std::string> text =
        read_whole_file("/proc/" + std::to_string(pid) + "/stat", 4096);
    const size_t close = text.ok() ? text->rfind(')') : std::string::npos;
    const bool alive = close != std::string::npos && close + 2 < text->size() &&
                       (*text)[close + 2] != 'Z' && (*text)[close + 2] != 'X';
    if (alive == want || SteadyClock::now() >= deadline) return alive;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

// Fake cgroup folders (one per v1 hierarchy) whose cgroup.procs lists `pids`.
PodTrace trace_with_cgroups(const ScratchDir& scratch, pid_t leader, const std::string& pids) {
  PodTrace trace;
  trace.process.leader = leader;
  trace.process.leader_start = process_start_ticks(leader);
  for (const char* controller : {"freezer", "pids", "devices"}) {
    const std::string dir = scratch.path() + "/" + controller;
    ::mkdir(dir.c_str(), 0755);
    std::ofstream(dir + "/cgroup.procs") << pids;
    trace.cgroups.push_back(dir);
  }
  return trace;
}

// A pod's cgroups hold all of it: once they are empty after the kill, /proc
// is not searched (a pod's exit would read every process's files). The
// stray outside the fake cgroups shows that no search was made.
TEST(PodSignal, APodWhoseCgroupsAreEmptyIsNotSearchedForInProc) {
  ScratchDir scratch;
  const SessionWithStray session = start_session_with_stray();
  ASSERT_GT(session.leader, 0);
  ASSERT_GT(session.outside, 0);
  const PodTrace trace = trace_with_cgroups(scratch, session.leader, "");
  signal_pod(trace, SIGKILL, true, Duration::millis(50));
  int status = 0;
  ::waitpid(session.leader, &status, 0);
  EXPECT_TRUE(WIFSIGNALED(status));
  EXPECT_TRUE(alive_becomes(session.outside, true));
  ::kill(session.outside, SIGKILL);
}

// ... but while a cgroup still lists a process after the kill (or is gone),
// /proc is searched as without cgroups, and the stray dies too.
TEST(PodSignal, APodWhoseCgroupsAreNotEmptyIsSearchedForInProc) {
  ScratchDir scratch;
  const SessionWithStray session = start_session_with_stray();
  ASSERT_GT(session.leader, 0);
  ASSERT_GT(session.outside, 0);
  // The leader stays listed (and unreaped, so its pid is not reused meanwhile).
  const PodTrace trace =
      trace_with_cgroups(scratch, session.leader, std::to_string(session.leader) + "\n");
  signal_pod(trace, SIGKILL, true, Duration::millis(50));
  EXPECT_FALSE(alive_becomes(session.outside, false));
  int status = 0;
  ::waitpid(session.leader, &status, 0);
  ::kill(session.outside, SIGKILL);
}

}  // namespace
}  // namespace allot::local
