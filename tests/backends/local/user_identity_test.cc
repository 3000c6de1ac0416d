// Issue 11, item 7: the pods of each submitting user run as that user's own
// account in the team's group; the user's home in the team's folder is the
// user's alone (0700), the team's shared folder stays shared within the
// team, and no pod reads another team's folders or another user's home.
#include "backends/local/user_identity.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "backends/local/account_record.h"
#include "backends/local/local_executor.h"
#include "backends/local/team_identity.h"
#include "local/exit_recorder.h"
#include "local/scratch.h"

namespace allot::local {
namespace {

using testing::ExitRecorder;
using testing::is_root;
using testing::ScratchDir;
using testing::ScratchTeams;
using testing::ScratchUsers;
using testing::shell_pod;

#define SKIP_UNLESS_ROOT()                                                             \
  if (!is_root()) {                                                                    \
    GTEST_SKIP() << "needs root: creates Unix accounts and switches to them (CI runs " \
                    "the tests as root)";                                              \
  }

TEST(UserAccountName, IsTheTeamAndTheUserWhenBothMapFaithfully) {
  EXPECT_EQ(user_account_name("research", "ana"), "allot-research_ana");
  EXPECT_EQ(user_account_name("team-7", "bo-2"), "allot-team-7_bo-2");
  // A service account of the team's own namespace keeps its name, marked "sa_".
  EXPECT_EQ(user_account_name("research", "system:serviceaccount:research:ci"),
            "allot-research_sa_ci");
}

TEST(UserAccountName, UnfaithfulNamesGetAHashSoNoTwoPairsShareAnAccount) {
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"research", "ana"},
      {"research", "Ana"},
      {"research", "ana@example.com"},
      {"research", "ana.example.com"},
      {"research", "sa_ci"},
      {"research", "system:serviceaccount:research:ci"},
      {"research", "system:serviceaccount:vision:ci"},
      {"Research", "ana"},
      {"a-b", "c"},
      {"a", "b-c"},
      {"a-very-long-team-name-for-vision", "a-very-long-user-name-one"},
      {"a-very-long-team-name-for-vision", "a-very-long-user-name-two"},
      {"", ""},
  };
  std::map<std::string, std::pair<std::string, std::string>> seen;
  for (const auto& [team, user] : pairs) {
    const std::string name = user_account_name(team, user);
    EXPECT_LE(name.size(), 32u) << name;
    EXPECT_TRUE(name.starts_with("allot-")) << name;
    EXPECT_NE(name.find('_'), std::string::npos) << name;
    EXPECT_EQ(name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-_"), std::string::npos)
        << name;
    EXPECT_EQ(name, user_account_name(team, user)) << "stable";
    const auto [it, fresh] = seen.emplace(name, std::make_pair(team, user));
    EXPECT_TRUE(fresh) << name << " for " << team << "/" << user << " and " << it->second.first
                       << "/" << it->second.second;
  }
  EXPECT_TRUE(user_account_name("research", "ana@example.com").starts_with("allot-research_ana-"));
}

TEST(UserAccountName, NeverDerivesATeamsAccountName) {
  // Team accounts never hold '_'; user accounts always do.
  for (const std::string team :
       {"research", "red.team", "a_b", "x y", "a-very-long-team-name-zz"}) {
    EXPECT_EQ(team_account_name(team).find('_'), std::string::npos) << team_account_name(team);
  }
}

TEST(UserAccountRecordFile, RoundTripsAnyPairAndRefusesALineOfTheWrongShape) {
  const std::map<AccountKey, std::string> accounts = {
      {{"research", "ana"}, "allot-research_ana"},
      {{"research", "ana@example.com"}, "allot-research_ana-1a2b3c4d"},
      {{"odd team", "odd\nuser %"}, "allot-odd_odd-00000000"}};
  const std::string text = AccountRecord::encode(kUserAccountsFormat, accounts);
  const auto decoded = AccountRecord::decode(kUserAccountsFormat, text, "users");
  ASSERT_TRUE(decoded.ok()) << decoded.status().to_string();
  EXPECT_EQ(*decoded, accounts);
  const auto team_line = AccountRecord::decode(kUserAccountsFormat, "allot-x team\n", "users");
  EXPECT_EQ(team_line.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(team_line.status().message().find("users:1"), std::string::npos);
  EXPECT_FALSE(AccountRecord::decode(kUserAccountsFormat, "allot-x t u extra\n", "users").ok());
  EXPECT_FALSE(AccountRecord::decode(kUserAccountsFormat, "allot-x t  u\n", "users").ok());
  const auto twice =
      AccountRecord::decode(kUserAccountsFormat, "allot-x t u\nallot-y t u\n", "users");
  EXPECT_EQ(twice.status().code(), ErrorCode::kInvalidArgument);
}

class UserIdentityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!is_root()) return;
    executor_ = std::make_unique<LocalExecutor>(options(true));
  }
  LocalExecutorOptions options(bool team_users) {
    LocalExecutorOptions out;
    out.data_dir = scratch_.data_dir();
    out.sink = &exits_;
    out.use_cgroups = false;
    out.gpus = std::vector<GpuDevice>{};
    out.run_as_team_users = team_users;
    return out;
  }
  // Runs a pod of `user` in `team` to its end; its exit and log.
  PodExit run(uint64_t id, const std::string& team, const std::string& user,
              const std::string& script, std::string* log) {
    PodLaunch pod = shell_pod(id, team, script);
    pod.user = user;
    const Status launched = executor_->launch_pod(pod);
    EXPECT_TRUE(launched.ok()) << launched.to_string();
    const std::optional<PodExit> exit = exits_.wait_for(id, 0);
    EXPECT_TRUE(exit.has_value());
    *log = executor_->read_log({WorkloadId(id), 0}, 0, 1 << 20).value();
    return exit.value_or(PodExit{});
  }
  std::string team_dir(const std::string& team) const {
    return scratch_.data_dir() + "/teams/" + team;
  }
  std::string home_of(const std::string& team, const std::string& account) const {
    return team_dir(team) + "/homes/" + account;
  }

  ScratchDir scratch_;
  ScratchTeams teams_;
  ScratchUsers users_;  // after teams_: user accounts go before their team's group
  ExitRecorder exits_;
  std::unique_ptr<LocalExecutor> executor_;
};

TEST_F(UserIdentityTest, APodRunsAsItsUsersAccountInTheTeamsGroupWithItsOwnHome) {
  SKIP_UNLESS_ROOT();
  const std::string team = teams_.make("who");
  const std::string account = users_.add(team, "ana");
  const std::string group = team_account_name(team);
  std::string log;
  const PodExit exit =
      run(1, team, "ana",
          "id -un; id -gn; id -Gn; echo \"$ALLOT_USER $ALLOT_TEAM $USER $HOME\"; pwd -P >/dev/null "
          "&& touch \"$HOME/x\" && stat -c '%U %G %a' \"$HOME\"",
          &log);
  EXPECT_TRUE(exit.succeeded()) << log;
  EXPECT_EQ(log, account + "\n" + group + "\n" + group + "\nana " + team + " " + account + " " +
                     home_of(team, account) + "\n" + account + " " + group + " 700\n");
  const Result<UnixAccount> created = find_user(account);
  ASSERT_TRUE(created.ok()) << created.status().to_string();
  const Result<UnixAccount> team_account = find_user(group);
  ASSERT_TRUE(team_account.ok());
  EXPECT_EQ(created->gid, team_account->gid) << "the team's group is the user's primary group";
  EXPECT_NE(created->uid, team_account->uid);
}

TEST_F(UserIdentityTest, UsersOfATeamShareItsFolderButNotTheirHomes) {
  SKIP_UNLESS_ROOT();
  const std::string team = teams_.make("pair");
  const std::string ana = users_.add(team, "ana");
  const std::string bo = users_.add(team, "bo");
  std::string log;
  PodExit exit =
      run(2, team, "ana",
          "echo ana-private > \"$HOME/secret\" && echo from-ana > "
          "\"$ALLOT_SHARED_DIR/ana.txt\" && stat -c '%G %a' \"$ALLOT_SHARED_DIR/ana.txt\"",
          &log);
  ASSERT_TRUE(exit.succeeded()) << log;
  EXPECT_EQ(log, team_account_name(team) + " 660\n") << "setgid: the team's file";

  // Bo cannot list or read Ana's home: a real EACCES.
  const std::string ana_home = home_of(team, ana);
  exit = run(3, team, "bo", "ls " + ana_home, &log);
  EXPECT_EQ(exit.exit_code, 2) << log;
  EXPECT_NE(log.find("Permission denied"), std::string::npos) << log;
  exit = run(4, team, "bo", "cat " + ana_home + "/secret", &log);
  EXPECT_EQ(exit.exit_code, 1) << log;
  EXPECT_NE(log.find("Permission denied"), std::string::npos) << log;
  EXPECT_EQ(log.find("ana-private"), std::string::npos) << log;
  // Nor list which homes the team has.
  exit = run(5, team, "bo", "ls " + team_dir(team) + "/homes", &log);
  EXPECT_NE(exit.exit_code, 0) << log;

  // The shared folder is the team's: Bo reads Ana's file and writes there too.
  exit = run(6, team, "bo",
             "cat \"$ALLOT_SHARED_DIR/ana.txt\" && echo from-bo >> \"$ALLOT_SHARED_DIR/ana.txt\" "
             "&& echo bo > \"$ALLOT_SHARED_DIR/bo.txt\" && cat \"$ALLOT_SHARED_DIR/ana.txt\"",
             &log);
  EXPECT_TRUE(exit.succeeded()) << log;
  EXPECT_EQ(log, "from-ana\nfrom-ana\nfrom-bo\n");
  exit = run(7, team, "ana", "cat \"$ALLOT_SHARED_DIR/bo.txt\" \"$HOME/secret\"", &log);
  EXPECT_TRUE(exit.succeeded()) << log;
  EXPECT_EQ(log, "bo\nana-private\n");

  for (const std::string& account : {ana, bo}) {
    struct stat info {};
    ASSERT_EQ(::stat(home_of(team, account).c_str(), &info), 0);
    EXPECT_EQ(info.st_mode & 07777, 0700u);
    EXPECT_EQ(info.st_uid, find_user(account)->uid);
    EXPECT_EQ(info.st_gid, find_user(team_account_name(team))->gid);
  }
}

TEST_F(UserIdentityTest, AUserOfAnotherTeamReadsNeitherItsHomesNorItsSharedFolder) {
  SKIP_UNLESS_ROOT();
  const std::string team = teams_.make("own");
  const std::string other = teams_.make("other");
  const std::string ana = users_.add(team, "ana");
  users_.add(other, "cy");
  std::string log;
  ASSERT_TRUE(run(8, team, "ana",
                  "echo private > \"$HOME/secret\" && echo team-only > \"$ALLOT_SHARED_DIR/f\"",
                  &log)
                  .succeeded())
      << log;
  const std::vector<std::string> attempts = {
      "ls " + home_of(team, ana),
      "cat " + home_of(team, ana) + "/secret",
      "ls " + team_dir(team) + "/shared",
      "cat " + team_dir(team) + "/shared/f",
      "ls " + team_dir(team),
      "ls " + team_dir(team) + "/homes",
  };
  uint64_t id = 9;
  for (const std::string& attempt : attempts) {
    const PodExit exit = run(id++, other, "cy", attempt, &log);
    EXPECT_NE(exit.exit_code, 0) << attempt << ": " << log;
    EXPECT_NE(log.find("Permission denied"), std::string::npos) << attempt << ": " << log;
    EXPECT_EQ(log.find("private"), std::string::npos) << log;
    EXPECT_EQ(log.find("team-only"), std::string::npos) << log;
  }
  // The same user name in another team is another account.
  const Result<UnixAccount> cy = find_user(user_account_name(other, "cy"));
  ASSERT_TRUE(cy.ok());
  struct stat info {};
  ASSERT_EQ(::stat(team_dir(team).c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0710u) << "closed to other teams";
  EXPECT_EQ(info.st_uid, 0u);
  EXPECT_EQ(info.st_gid, find_user(team_account_name(team))->gid);
}

TEST_F(UserIdentityTest, AccountsAreRecordedOncePerTeamAndUserAndReadBackAfterARestart) {
  SKIP_UNLESS_ROOT();
  const std::string team = teams_.make("rec");
  const std::string robot = "system:serviceaccount:" + team + ":ci";
  const std::string ana = users_.add(team, "ana");
  const std::string ci = users_.add(team, robot);
  EXPECT_EQ(ci, "allot-" + team + "_sa_ci");
  std::string log;
  ASSERT_TRUE(run(20, team, "ana", "id -un", &log).succeeded()) << log;
  EXPECT_EQ(log, ana + "\n");
  ASSERT_TRUE(run(21, team, robot, "id -un; echo \"$ALLOT_USER\"", &log).succeeded()) << log;
  EXPECT_EQ(log, ci + "\n" + robot + "\n");

  // A new instance (a restart) reads the record back and creates nothing.
  TeamIdentities teams(DataLayout(scratch_.data_dir(), true));
  UserIdentities users(DataLayout(scratch_.data_dir(), true));
  const Result<UnixAccount> team_account = teams.ensure(team);
  ASSERT_TRUE(team_account.ok());
  const Result<UnixAccount> again = users.ensure(team, "ana", *team_account);
  ASSERT_TRUE(again.ok()) << again.status().to_string();
  EXPECT_EQ(again->user, ana);
  EXPECT_EQ(again->uid, find_user(ana)->uid);
  EXPECT_EQ(again->gid, team_account->gid);
  const std::string record = scratch_.data_dir() + "/state/user-accounts";
  struct stat info {};
  ASSERT_EQ(::stat(record.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0600u);
  EXPECT_EQ(info.st_uid, 0u);
  const auto recorded = AccountRecord::load(record, kUserAccountsFormat);
  ASSERT_TRUE(recorded.ok()) << recorded.status().to_string();
  EXPECT_EQ(recorded->account_of({team, robot}), ci);
}

TEST_F(UserIdentityTest, AnAccountOnTheHostThatIsNotRecordedIsNeverAdopted) {
  SKIP_UNLESS_ROOT();
  const std::string team = teams_.make("foreign");
  const std::string derived = users_.add(team, "ana");
  ASSERT_EQ(std::system(("useradd --system --no-create-home --user-group --shell "
                         "/usr/sbin/nologin " +
                         derived + " >/dev/null 2>&1")
                            .c_str()),
            0);
  const Result<UnixAccount> foreign = find_user(derived);
  ASSERT_TRUE(foreign.ok());
  std::string log;
  ASSERT_TRUE(run(30, team, "ana", "id -un", &log).succeeded()) << log;
  EXPECT_EQ(log, derived + "-2\n");
  [[maybe_unused]] const int rc = std::system(
      ("userdel " + derived + "-2 >/dev/null 2>&1; groupdel " + derived + " >/dev/null 2>&1")
          .c_str());
}

// Not running pods as their users (not root, or run_as_team_users unset):
// as before, the current user with DATA/homes/<user>, and ALLOT_USER still set.
TEST_F(UserIdentityTest, WithoutTeamUsersPodsRunAsBeforeAndStillSeeTheirUser) {
  executor_ = std::make_unique<LocalExecutor>(options(false));
  ASSERT_FALSE(executor_->runs_as_team_users());
  const std::string team = teams_.make("plain");
  std::string log;
  const PodExit exit = run(40, team, "ana", "id -u; echo \"$ALLOT_USER $HOME\"", &log);
  EXPECT_TRUE(exit.succeeded()) << log;
  const UnixAccount self = current_account();
  EXPECT_EQ(log, std::to_string(self.uid) + "\nana " + scratch_.data_dir() + "/homes/" +
                     path_component(self.user) + "\n");
  EXPECT_FALSE(find_user(user_account_name(team, "ana")).ok()) << "no account was made";
}

}  // namespace
}  // namespace allot::local
