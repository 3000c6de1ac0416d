#include "backends/local/pod_pid_file.h"

#include <csignal>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/local/local_executor.h"
#include "backends/local/proc_table.h"
#include "backends/local/process_spawn.h"
#include "local/exit_recorder.h"
#include "local/scratch.h"

namespace allot::local {
namespace {

using testing::ExitRecorder;
using testing::ScratchDir;

// A process in its own group, as a pod of a crashed allotd would be.
pid_t spawn_orphan() {
  SpawnOptions options;
  options.argv = {"/bin/sleep", "60"};
  Result<SpawnedProcess> spawned = spawn_process(options);
  EXPECT_TRUE(spawned.ok());
  return spawned.ok() ? spawned->pid : -1;
}

int wait_signal(pid_t pid) {
  int status = 0;
  EXPECT_EQ(::waitpid(pid, &status, 0), pid);
  return WIFSIGNALED(status) ? WTERMSIG(status) : 0;
}

class PodPidFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ::mkdir(scratch_.data_dir().c_str(), 0711);
    ::mkdir(run_dir().c_str(), 0700);
  }
  std::string run_dir() const { return scratch_.data_dir() + "/run"; }

  ScratchDir scratch_;
};

TEST_F(PodPidFileTest, StalePodsAreKilledAndTheirFilesRemoved) {
  const pid_t orphan = spawn_orphan();
  ASSERT_GT(orphan, 0);
  const std::string file = run_dir() + "/7-0.pid";
  ASSERT_TRUE(write_pod_pid_file(file, orphan).ok());

  const std::vector<StalePod> stale = LocalExecutor::kill_stale_pods(scratch_.data_dir());
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_EQ(stale[0].pid_file, file);
  EXPECT_EQ(stale[0].pgid, orphan);
  EXPECT_TRUE(stale[0].killed);
  EXPECT_EQ(wait_signal(orphan), SIGKILL);
  EXPECT_FALSE(std::ifstream(file).good());
}

TEST_F(PodPidFileTest, ExecutorKillsStalePodsWhenItStarts) {
  const pid_t orphan = spawn_orphan();
  ASSERT_GT(orphan, 0);
  ASSERT_TRUE(write_pod_pid_file(run_dir() + "/8-1.pid", orphan).ok());
  ExitRecorder exits;
  LocalExecutorOptions options;
  options.data_dir = scratch_.data_dir();
  options.sink = &exits;
  options.run_as_team_users = false;
  options.use_cgroups = false;
  options.gpus = std::vector<GpuDevice>{};
  LocalExecutor executor(options);
  EXPECT_EQ(wait_signal(orphan), SIGKILL);
  EXPECT_EQ(exits.total(), 0u);
}

TEST_F(PodPidFileTest, ReusedPidIsLeftAlone) {
  const pid_t stranger = spawn_orphan();
  ASSERT_GT(stranger, 0);
  // Same pid, another start time: the pid now belongs to an unrelated process.
  std::ofstream(run_dir() + "/9-0.pid")
      << stranger << " " << stranger << " " << process_start_ticks(stranger) + 1 << "\n";
  const std::vector<StalePod> stale = LocalExecutor::kill_stale_pods(scratch_.data_dir());
  ASSERT_EQ(stale.size(), 1u);
  EXPECT_FALSE(stale[0].killed);
  EXPECT_EQ(stale[0].note, "pid reused");
  EXPECT_EQ(::kill(stranger, 0), 0);  // still alive
  ::kill(stranger, SIGKILL);
  wait_signal(stranger);
}

TEST_F(PodPidFileTest, GoneAndUnreadableRecordsOnlyLoseTheirFiles) {
  const pid_t gone = spawn_orphan();
  ASSERT_GT(gone, 0);
  ASSERT_TRUE(write_pod_pid_file(run_dir() + "/10-0.pid", gone).ok());
  ::kill(gone, SIGKILL);
  wait_signal(gone);
  std::ofstream(run_dir() + "/11-0.pid") << "garbage\n";

  std::vector<StalePod> stale = LocalExecutor::kill_stale_pods(scratch_.data_dir());
  ASSERT_EQ(stale.size(), 2u);
  std::sort(stale.begin(), stale.end(),
            [](const StalePod& a, const StalePod& b) { return a.pid_file < b.pid_file; });
  EXPECT_FALSE(stale[0].killed);
  EXPECT_EQ(stale[0].note, "already gone");
  EXPECT_EQ(stale[1].note, "unreadable");
  EXPECT_TRUE(LocalExecutor::kill_stale_pods(scratch_.data_dir()).empty());
}

TEST_F(PodPidFileTest, RecordsTheWholeTraceOfAPod) {
  PodTrace trace;
  trace.process = {4242, 99, 7};
  trace.cgroups = {"/sys/fs/cgroup/freezer/allot/x-1-0", "/sys/fs/cgroup/pids/allot/x-1-0"};
  const std::string file = run_dir() + "/1-0.pid";
  ASSERT_TRUE(write_pod_pid_file(file, trace).ok());
  struct stat info {};
  ASSERT_EQ(::stat(file.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0600u);
  const auto read = read_pod_pid_file(file);
  ASSERT_TRUE(read.ok()) << read.status().to_string();
  EXPECT_EQ(read->first.process.leader, 4242);
  EXPECT_EQ(read->first.process.leader_start, 99u);
  EXPECT_EQ(read->first.process.audit_session, 7u);
  EXPECT_EQ(read->first.cgroups, trace.cgroups);
  EXPECT_EQ(read->second, current_boot_id());
}

// pod_members(): the pod's session, its audit session and their descendants;
// nothing of a leader pid that now belongs to another process.
TEST(PodMembers, FollowsSessionsAuditSessionsAndDescendants) {
  const std::vector<ProcEntry> table = {
      {100, 1, 100, 5, 1000, false},    // the leader
      {101, 100, 100, 5, 1001, false},  // its child
      {102, 100, 102, 5, 1002, false},  // setsid child
      {103, 102, 102, 5, 1003, false},  // its child
      {104, 1, 104, 5, 1004, false},    // double-forked daemon: only the audit session says
      {105, 1, 105, 9, 1005, false},    // someone else
      {106, 105, 105, 9, 1006, false},  // someone else's child
      {107, 1, 100, 5, 1007, true},     // a zombie of the pod
      {50, 1, 50, 5, 1, false},         // allotd itself (sharing no audit session in practice)
  };
  EXPECT_EQ(pod_members(table, {100, 1000, 5}, 50), (std::vector<pid_t>{100, 101, 102, 103, 104}));
  EXPECT_EQ(pod_members(table, {100, 1000, kNoAuditSession}, 50),
            (std::vector<pid_t>{100, 101, 102, 103}));
  // Pid 100 reused by a process started later: only the audit session counts.
  EXPECT_EQ(pod_members(table, {100, 999, kNoAuditSession}, 50), std::vector<pid_t>{});
}

TEST(ProcessStartTicks, IsKnownForALiveProcessAndZeroForNone) {
  EXPECT_GT(process_start_ticks(::getpid()), 0u);
  EXPECT_EQ(process_start_ticks(-5), 0u);
}

}  // namespace
}  // namespace allot::local
