// remove_recorded_accounts(): the accounts one data folder made go, users
// first and then the teams' users and groups; another folder's, someone
// else's of the same name, and one still running a process stay.
#include "backends/local/account_removal.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "backends/local/data_layout.h"
#include "backends/local/team_identity.h"
#include "backends/local/user_identity.h"
#include "local/scratch.h"

namespace allot::local {
namespace {

using testing::is_root;
using testing::ScratchDir;
using testing::ScratchTeams;
using testing::ScratchUsers;

#define SKIP_UNLESS_ROOT()                                                             \
  if (!is_root()) {                                                                    \
    GTEST_SKIP() << "needs root: creates Unix accounts and switches to them (CI runs " \
                    "the tests as root)";                                              \
  }

bool on_host(const std::string& name) { return find_user(name).ok() || find_group(name).ok(); }

bool holds(const std::vector<std::string>& list, const std::string& prefix) {
  return std::any_of(list.begin(), list.end(),
                     [&](const std::string& entry) { return entry.starts_with(prefix); });
}

class AccountRemovalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!is_root()) return;
    ASSERT_TRUE(layout_.prepare_root().ok());
    ASSERT_TRUE(other_layout_.prepare_root().ok());
  }
  // The team's account in `layout`, and the account of `user` in it.
  UnixAccount make_team(const DataLayout& layout, const std::string& team) {
    const Result<UnixAccount> account = TeamIdentities(layout).ensure(team);
    EXPECT_TRUE(account.ok()) << account.status().to_string();
    return account.ok() ? account.value() : UnixAccount{};
  }
  UnixAccount make_user(const DataLayout& layout, const std::string& team,
                        const std::string& user) {
    const UnixAccount team_account = make_team(layout, team);
    users_.add(team, user);
    const Result<UnixAccount> account = UserIdentities(layout).ensure(team, user, team_account);
    EXPECT_TRUE(account.ok()) << account.status().to_string();
    return account.ok() ? account.value() : UnixAccount{};
  }

  ScratchDir scratch_;
  ScratchDir other_scratch_;
  ScratchTeams teams_;
  ScratchUsers users_;  // after teams_: user accounts go before their team's group
  DataLayout layout_{scratch_.data_dir(), true};
  DataLayout other_layout_{other_scratch_.data_dir(), true};
};

TEST_F(AccountRemovalTest, TheFoldersUsersAndTeamsGoAndAnotherFoldersStay) {
  SKIP_UNLESS_ROOT();
  const std::string team = teams_.make("gone");
  const std::string other_team = teams_.make("stays");
  const UnixAccount ana = make_user(layout_, team, "ana");
  const UnixAccount team_account = make_team(layout_, team);
  const UnixAccount other = make_user(other_layout_, other_team, "bo");
  ASSERT_TRUE(on_host(ana.user) && on_host(team_account.user) && on_host(other.user));

  const Result<AccountRemoval> removal = remove_recorded_accounts(layout_);
  ASSERT_TRUE(removal.ok()) << removal.status().to_string();
  EXPECT_EQ(removal->removed, (std::vector<std::string>{ana.user, team_account.user,
                                                        team_account.user + " (group)"}));
  EXPECT_TRUE(removal->failed.empty() && removal->kept.empty() && removal->absent.empty());
  EXPECT_FALSE(on_host(ana.user));
  EXPECT_FALSE(on_host(team_account.user));
  EXPECT_TRUE(find_user(other.user).ok());
  EXPECT_TRUE(find_group(team_account_name(other_team)).ok());

  const Result<AccountRemoval> again = remove_recorded_accounts(layout_);
  ASSERT_TRUE(again.ok());
  EXPECT_TRUE(again->removed.empty());
  EXPECT_EQ(again->absent, (std::vector<std::string>{ana.user, team_account.user}));
}

TEST_F(AccountRemovalTest, AnAccountOfTheNameWithAnotherHomeIsSomeoneElsesAndStays) {
  SKIP_UNLESS_ROOT();
  const std::string team = teams_.make("foreign");
  const UnixAccount team_account = make_team(layout_, team);
  // The account now belongs elsewhere: its home is not this folder's.
  ASSERT_EQ(std::system(("usermod --home /nonexistent " + team_account.user).c_str()), 0);
  const Result<AccountRemoval> removal = remove_recorded_accounts(layout_);
  ASSERT_TRUE(removal.ok()) << removal.status().to_string();
  EXPECT_TRUE(removal->removed.empty());
  ASSERT_EQ(removal->kept.size(), 1u);
  EXPECT_NE(removal->kept[0].find("/nonexistent"), std::string::npos) << removal->kept[0];
  EXPECT_TRUE(find_user(team_account.user).ok());
  EXPECT_TRUE(find_group(team_account.user).ok());
}

TEST_F(AccountRemovalTest, AnAccountStillRunningAProcessFailsAndTheOthersStillGo) {
  SKIP_UNLESS_ROOT();
  const std::string busy_team = teams_.make("busy");
  const std::string idle_team = teams_.make("idle");
  const UnixAccount busy = make_team(layout_, busy_team);
  const UnixAccount idle = make_team(layout_, idle_team);
  const std::string pid_file = scratch_.path() + "/busy.pid";
  const testing::ReadySignal running_as_busy(scratch_.path());
  ASSERT_EQ(std::system(("setpriv --reuid " + std::to_string(busy.uid) + " --regid " +
                         std::to_string(busy.gid) + " --clear-groups sh -c 'echo > " +
                         running_as_busy.path() + "; exec sleep 60' & echo $! > " + pid_file)
                            .c_str()),
            0);
  ASSERT_TRUE(running_as_busy.wait(std::chrono::seconds(10)));
  std::string pid;
  std::ifstream(pid_file) >> pid;
  ASSERT_FALSE(pid.empty());

  const Result<AccountRemoval> removal = remove_recorded_accounts(layout_);
  [[maybe_unused]] const int killed = std::system(("kill " + pid + " 2>/dev/null").c_str());
  ASSERT_TRUE(removal.ok()) << removal.status().to_string();
  EXPECT_TRUE(holds(removal->failed, busy.user + ": "))
      << ::testing::PrintToString(removal->failed);
  EXPECT_NE(removal->failed.front().find("still runs processes"), std::string::npos);
  EXPECT_TRUE(holds(removal->removed, idle.user));
  EXPECT_FALSE(on_host(idle.user));
  EXPECT_TRUE(find_user(busy.user).ok());
}

TEST_F(AccountRemovalTest, AnUnreadableRecordRemovesNothing) {
  SKIP_UNLESS_ROOT();
  const std::string team = teams_.make("kept");
  const UnixAccount team_account = make_team(layout_, team);
  std::ofstream(layout_.user_accounts_path()) << "not a record line\n";
  const Result<AccountRemoval> removal = remove_recorded_accounts(layout_);
  EXPECT_EQ(removal.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(removal.status().message().find("user-accounts"), std::string::npos)
      << removal.status().message();
  EXPECT_TRUE(find_user(team_account.user).ok());
}

}  // namespace
}  // namespace allot::local
