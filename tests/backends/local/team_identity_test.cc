#include "backends/local/team_identity.h"

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "backends/local/local_executor.h"
#include "local/exit_recorder.h"
#include "local/scratch.h"

namespace allot::local {
namespace {

using testing::ExitRecorder;
using testing::is_root;
using testing::ScratchDir;
using testing::ScratchTeams;
using testing::shell_pod;

#define SKIP_UNLESS_ROOT()                                                             \
  if (!is_root()) {                                                                    \
    GTEST_SKIP() << "needs root: creates Unix accounts and switches to them (CI runs " \
                    "the tests as root)";                                              \
  }

TEST(TeamAccountName, KeepsASimpleTeamName) {
  EXPECT_EQ(team_account_name("research"), "allot-research");
  EXPECT_EQ(team_account_name("team-7"), "allot-team-7");
}

TEST(TeamAccountName, UnfaithfulNamesGetAHashSoTeamsNeverShareAnAccount) {
  const std::string spaced = team_account_name("Research Lab");
  EXPECT_EQ(spaced.rfind("allot-research-lab-", 0), 0u) << spaced;
  EXPECT_NE(spaced, team_account_name("research-lab"));
  EXPECT_NE(spaced, team_account_name("Research_Lab"));
  const std::string long_a = team_account_name("a-very-long-team-name-for-vision-one");
  const std::string long_b = team_account_name("a-very-long-team-name-for-vision-two");
  EXPECT_LE(long_a.size(), 32u);
  EXPECT_LE(long_b.size(), 32u);
  EXPECT_NE(long_a, long_b);
  EXPECT_EQ(long_a, team_account_name("a-very-long-team-name-for-vision-one"));  // stable
  EXPECT_LE(team_account_name("").size(), 32u);
}

class TeamIdentityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!is_root()) return;
    LocalExecutorOptions options;
    options.data_dir = scratch_.data_dir();
    options.sink = &exits_;
    options.use_cgroups = false;
    options.gpus = std::vector<GpuDevice>{};
    executor_ = std::make_unique<LocalExecutor>(options);
  }
  PodExit run(const PodLaunch& pod, std::string* log) {
    const Status launched = executor_->launch_pod(pod);
    EXPECT_TRUE(launched.ok()) << launched.to_string();
    const std::optional<PodExit> exit = exits_.wait_for(pod.workload_id, pod.pod_index);
    EXPECT_TRUE(exit.has_value());
    *log = executor_->read_log({WorkloadId(pod.workload_id), pod.pod_index}, 0, 1 << 20).value();
    return exit.value_or(PodExit{});
  }

  ScratchDir scratch_;
  ScratchTeams teams_;  // after scratch_: accounts go before the folders
  ExitRecorder exits_;
  std::unique_ptr<LocalExecutor> executor_;
};

TEST_F(TeamIdentityTest, PodRunsAsItsTeamsUserAndGroup) {
  SKIP_UNLESS_ROOT();
  ASSERT_TRUE(executor_->runs_as_team_users());
  const std::string team = teams_.make("id");
  const std::string account = team_account_name(team);
  std::string log;
  const PodExit exit =
      run(shell_pod(1, team, "id -un; id -gn; id -Gn; echo \"$USER $HOME\"; umask"), &log);
  EXPECT_TRUE(exit.succeeded()) << log;
  EXPECT_EQ(log, account + "\n" + account + "\n" + account + "\n" + account + " " +
                     scratch_.data_dir() + "/homes/" + account + "\n0007\n");
}

TEST_F(TeamIdentityTest, FoldersHaveTheirOwnersAndModes) {
  SKIP_UNLESS_ROOT();
  const std::string team = teams_.make("dirs");
  std::string log;
  ASSERT_TRUE(run(shell_pod(2, team, "true"), &log).succeeded()) << log;
  const Result<UnixAccount> account = find_user(team_account_name(team));
  ASSERT_TRUE(account.ok());
  struct Expected {
    std::string path;
    mode_t mode;
    uid_t uid;
    gid_t gid;
  };
  const std::string data = scratch_.data_dir();
  const Expected expected[] = {
      {data, 0711, 0, 0},
      {data + "/teams", 0711, 0, 0},
      {data + "/teams/" + team + "/shared", 02770, 0, account->gid},
      {data + "/homes/" + account->user, 0700, account->uid, account->gid},
      {data + "/work/ns", 0711, 0, 0},
      {data + "/work/ns/job-2", 0770, account->uid, account->gid},
      {data + "/logs/2/pod-0.log", 0640, 0, account->gid},
      {data + "/run", 0700, 0, 0},
  };
  for (const Expected& want : expected) {
    struct stat info {};
    ASSERT_EQ(::stat(want.path.c_str(), &info), 0) << want.path;
    EXPECT_EQ(info.st_mode & 07777, want.mode) << want.path;
    EXPECT_EQ(info.st_uid, want.uid) << want.path;
    EXPECT_EQ(info.st_gid, want.gid) << want.path;
  }
}

TEST_F(TeamIdentityTest, TeamsCannotReadOrListEachOthersSharedFolder) {
  SKIP_UNLESS_ROOT();
  const std::string team_a = teams_.make("a");
  const std::string team_b = teams_.make("b");
  const std::string shared_b = scratch_.data_dir() + "/teams/" + team_b + "/shared";
  std::string log;
  // B writes into its own shared folder; the file belongs to B's group (setgid).
  PodExit exit = run(shell_pod(3, team_b,
                               "echo secret > \"$ALLOT_SHARED_DIR/f\" && "
                               "stat -c '%G %a' \"$ALLOT_SHARED_DIR/f\""),
                     &log);
  EXPECT_TRUE(exit.succeeded()) << log;
  EXPECT_EQ(log, team_account_name(team_b) + " 660\n");

  exit = run(shell_pod(4, team_a, "ls " + shared_b), &log);
  EXPECT_EQ(exit.exit_code, 2) << log;
  EXPECT_NE(log.find("Permission denied"), std::string::npos) << log;

  exit = run(shell_pod(5, team_a, "cat " + shared_b + "/f"), &log);
  EXPECT_EQ(exit.exit_code, 1) << log;
  EXPECT_NE(log.find("Permission denied"), std::string::npos) << log;
  EXPECT_EQ(log.find("secret"), std::string::npos) << log;

  exit = run(shell_pod(6, team_a, "ls " + scratch_.data_dir() + "/teams"), &log);
  EXPECT_NE(exit.exit_code, 0) << log;  // the list of teams is closed too

  exit = run(shell_pod(7, team_b, "cat \"$ALLOT_SHARED_DIR/f\""), &log);
  EXPECT_TRUE(exit.succeeded()) << log;
  EXPECT_EQ(log, "secret\n");
}

TEST_F(TeamIdentityTest, EnsuringAnAccountIsIdempotentAndSafeUnderConcurrency) {
  SKIP_UNLESS_ROOT();
  const std::string team = teams_.make("race");
  // Separate instances do not share a mutex: creation must still end with one account.
  std::vector<Result<UnixAccount>> results(4, Result<UnixAccount>(not_found("not run")));
  std::vector<std::thread> threads;
  for (size_t i = 0; i < results.size(); ++i) {
    threads.emplace_back([&, i] {
      TeamIdentities identities(scratch_.data_dir() + "/homes");
      results[i] = identities.ensure(team);
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (const Result<UnixAccount>& result : results) {
    ASSERT_TRUE(result.ok()) << result.status().to_string();
    EXPECT_EQ(result->uid, results[0]->uid);
    EXPECT_EQ(result->gid, results[0]->gid);
    EXPECT_EQ(result->user, team_account_name(team));
  }
  TeamIdentities again(scratch_.data_dir() + "/homes");
  const Result<UnixAccount> second = again.ensure(team);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->uid, results[0]->uid);
}

}  // namespace
}  // namespace allot::local
