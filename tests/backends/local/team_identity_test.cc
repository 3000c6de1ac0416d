#include "backends/local/team_identity.h"

#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <sys/stat.h>

#include "backends/local/account_record.h"
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
      TeamIdentities identities(DataLayout(scratch_.data_dir(), true));
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
  TeamIdentities again(DataLayout(scratch_.data_dir(), true));
  const Result<UnixAccount> second = again.ensure(team);
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second->uid, results[0]->uid);
}

// Deletes the named accounts at the end (ScratchTeams knows only derived names).
class ScratchAccounts {
 public:
  ~ScratchAccounts() {
    for (const std::string& name : names_) {
      [[maybe_unused]] const int user_rc =
          std::system(("userdel " + name + " >/dev/null 2>&1").c_str());
      [[maybe_unused]] const int group_rc =
          std::system(("groupdel " + name + " >/dev/null 2>&1").c_str());
    }
  }
  void add(const std::string& name) { names_.push_back(name); }

 private:
  std::vector<std::string> names_;
};

TEST(TeamAccountRecordFile, RoundTripsAnyTeamNameAndRefusesAmbiguity) {
  const std::map<AccountKey, std::string> accounts = {
      {{"red.team"}, "allot-red-team-d604793f"},
      {{"red-team-d604793f"}, "allot-red-team-d604793f-2"},
      {{"odd name\n%\t"}, "allot-odd"}};
  const std::string text = AccountRecord::encode(kTeamAccountsFormat, accounts);
  const auto decoded = AccountRecord::decode(kTeamAccountsFormat, text, "record");
  ASSERT_TRUE(decoded.ok()) << decoded.status().to_string();
  EXPECT_EQ(*decoded, accounts);
  const auto shared =
      AccountRecord::decode(kTeamAccountsFormat, "allot-x a\nallot-x b\n", "record");
  EXPECT_EQ(shared.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(shared.status().message().find("record:2"), std::string::npos)
      << shared.status().to_string();
  EXPECT_FALSE(AccountRecord::decode(kTeamAccountsFormat, "allot-x a%4\n", "record").ok());
  // A record written before user accounts existed reads as it did.
  const auto old = AccountRecord::decode(
      kTeamAccountsFormat,
      "# allot team accounts v1: ACCOUNT TEAM (percent-encoded)\nallot-a a\nallot-b b%20c\n",
      "record");
  ASSERT_TRUE(old.ok()) << old.status().to_string();
  EXPECT_EQ(old->at({"b c"}), "allot-b");
}

TEST(TeamAccountRecordFile, IsWrittenAtomicallyWithMode0600WhateverTheUmask) {
  ScratchDir scratch;
  const std::string path = scratch.path() + "/team-accounts";
  const mode_t previous = ::umask(0);
  auto record = AccountRecord::load(path, kTeamAccountsFormat);
  ASSERT_TRUE(record.ok());
  const Status added = record->add({"team-a"}, "allot-team-a");
  ::umask(previous);
  ASSERT_TRUE(added.ok()) << added.to_string();
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0600u);
  EXPECT_NE(::access((path + ".tmp").c_str(), F_OK), 0);
  const auto again = AccountRecord::load(path, kTeamAccountsFormat);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->account_of({"team-a"}), "allot-team-a");
}

TEST(TeamAccountChoice, ACollidingDerivedNameGetsASuffixThatFits) {
  const std::string derived = team_account_name("red.team");
  EXPECT_EQ(derived, team_account_name("red-team-d604793f"));  // the collision of issue 10
  const auto first = choose_account_name(team_account_name("red-team-d604793f"), "team",
                                         [&](const std::string& name) { return name != derived; });
  ASSERT_TRUE(first.ok());
  EXPECT_EQ(*first, derived + "-2");
  const std::string long_name = team_account_name("a-very-long-team-name-for-vision-one");
  const auto cut = choose_account_name(long_name, "team",
                                       [&](const std::string& name) { return name != long_name; });
  ASSERT_TRUE(cut.ok());
  EXPECT_LE(cut->size(), 32u);
  EXPECT_TRUE(cut->ends_with("-2")) << *cut;
  const auto none =
      choose_account_name("allot-x", "team 'x'", [](const std::string&) { return false; });
  EXPECT_EQ(none.status().code(), ErrorCode::kResourceExhausted);
  EXPECT_NE(none.status().message().find("team 'x'"), std::string::npos)
      << none.status().to_string();
}

// Issue 10, isolation 7: "red.team" and a team literally named after its
// derived account shared one Unix account and so each other's folders.
TEST_F(TeamIdentityTest, TeamsWhoseDerivedNamesCollideGetDistinctRecordedAccounts) {
  SKIP_UNLESS_ROOT();
  ScratchAccounts accounts;
  const std::string dotted = "lt" + std::to_string(::getpid()) + ".collide";
  const std::string derived = team_account_name(dotted);
  const std::string literal = derived.substr(std::string("allot-").size());
  ASSERT_EQ(team_account_name(literal), derived);
  accounts.add(derived);
  accounts.add(derived + "-2");
  std::string log;
  ASSERT_TRUE(run(shell_pod(11, dotted, "echo secret > \"$ALLOT_SHARED_DIR/f\""), &log).succeeded())
      << log;
  const PodExit exit =
      run(shell_pod(12, literal,
                    "id -un; cat " + scratch_.data_dir() + "/teams/" + dotted + "/shared/f"),
          &log);
  EXPECT_NE(exit.exit_code, 0) << log;
  EXPECT_EQ(log.find("secret"), std::string::npos) << log;
  EXPECT_TRUE(log.starts_with(derived + "-2\n")) << log;

  // A restart reads the record back: the same account for each team, whatever the order.
  TeamIdentities restarted(DataLayout(scratch_.data_dir(), true));
  const Result<UnixAccount> literal_again = restarted.ensure(literal);
  const Result<UnixAccount> dotted_again = restarted.ensure(dotted);
  ASSERT_TRUE(literal_again.ok() && dotted_again.ok());
  EXPECT_EQ(literal_again->user, derived + "-2");
  EXPECT_EQ(dotted_again->user, derived);
  struct stat info {};
  const std::string record = scratch_.data_dir() + "/state/team-accounts";
  ASSERT_EQ(::stat(record.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 07777, 0600u);
  EXPECT_EQ(info.st_uid, 0u);
}

TEST_F(TeamIdentityTest, AnAccountOnTheHostThatIsNotRecordedIsNeverAdopted) {
  SKIP_UNLESS_ROOT();
  ScratchAccounts accounts;
  const std::string team = teams_.make("foreign");
  const std::string derived = team_account_name(team);
  accounts.add(derived);
  accounts.add(derived + "-2");
  ASSERT_EQ(std::system(("groupadd --system " + derived + " && useradd --system --gid " + derived +
                         " --no-create-home --shell /usr/sbin/nologin " + derived)
                            .c_str()),
            0);
  const Result<UnixAccount> foreign = find_user(derived);
  ASSERT_TRUE(foreign.ok());
  TeamIdentities identities(DataLayout(scratch_.data_dir(), true));
  const Result<UnixAccount> account = identities.ensure(team);
  ASSERT_TRUE(account.ok()) << account.status().to_string();
  EXPECT_EQ(account->user, derived + "-2");
  EXPECT_NE(account->uid, foreign->uid);
  EXPECT_NE(account->gid, foreign->gid);
}

}  // namespace
}  // namespace allot::local
