// Issue 11 through the real `allot` binary against a real allotd: `allot
// login --token-file DATA/admin-token`, `whoami`, `auth can-i`, a session
// bound to a team and a role, and a command refused with its reason; a
// service account made and its token issued and revoked with the CLI.
#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <sys/wait.h>

#include "allotd_test.h"

namespace allot::server_test {
namespace {

struct CliRun {
  int exit_code = -1;
  std::string output;  // stdout and stderr
};

class CliLoginTest : public AllotdTest {
 protected:
  // Runs `allot ARGS` with its own credentials file `credentials`.
  CliRun allot(const std::string& credentials, const std::string& args) {
    const std::string command =
        "ALLOT_CREDENTIALS=" + shell_quote(credentials) +
        " ALLOT_TOKEN= ALLOT_SERVER=http://127.0.0.1:" + std::to_string(allotd_.port()) + " " +
        ALLOT_CLI + " " + args + " 2>&1";
    CliRun run;
    std::FILE* pipe = ::popen(command.c_str(), "r");
    if (pipe == nullptr) return run;
    std::array<char, 4096> buffer{};
    size_t got = 0;
    while ((got = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) {
      run.output.append(buffer.data(), got);
    }
    const int status = ::pclose(pipe);
    run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return run;
  }

  std::string credentials(const std::string& name) const {
    return (allotd_.temp_dir() / (name + ".json")).string();
  }
  std::string token_file() const { return (allotd_.data_dir() / "admin-token").string(); }
};

TEST_F(CliLoginTest, TheAdministratorLogsInWithTheTokenFileAndMayDoAnything) {
  const std::string admin = credentials("admin");

  const CliRun login = allot(admin, "login --token-file " + token_file());
  ASSERT_EQ(login.exit_code, 0) << login.output;
  EXPECT_NE(login.output.find("logged in as admin"), std::string::npos) << login.output;
  EXPECT_EQ(login.output.find(allotd_.admin_token()), std::string::npos) << "no token printed";

  const CliRun whoami = allot(admin, "whoami");
  EXPECT_EQ(whoami.exit_code, 0);
  EXPECT_NE(whoami.output.find("subject: admin"), std::string::npos) << whoami.output;
  EXPECT_NE(whoami.output.find("system:admins"), std::string::npos) << whoami.output;
  const CliRun can_i = allot(admin, "auth can-i delete teams");
  EXPECT_EQ(can_i.exit_code, 0) << can_i.output;
  EXPECT_TRUE(can_i.output.starts_with("yes")) << can_i.output;
}

TEST_F(CliLoginTest, ATeamMemberSessionIsRefusedAnotherTeamsWorkWithTheReason) {
  apply(kTestPolicy);
  submit("prod", "p1", {.script = "sleep 600", .gpus = 1});
  submit("research", "r1", {.script = "sleep 600", .gpus = 1});
  const std::string member = credentials("member");

  const CliRun login =
      allot(member, "login --token-file " + token_file() + " --team research --role team-member");
  ASSERT_EQ(login.exit_code, 0) << login.output;
  EXPECT_NE(login.output.find("in team research as team-member"), std::string::npos);

  const CliRun list = allot(member, "get workloads -A");
  EXPECT_EQ(list.exit_code, 0) << list.output;
  EXPECT_NE(list.output.find("r1"), std::string::npos) << list.output;
  EXPECT_EQ(list.output.find("p1"), std::string::npos) << "prod's work is not listed";
  const CliRun cancel = allot(member, "cancel p1 -n prod");
  EXPECT_NE(cancel.exit_code, 0);
  EXPECT_NE(cancel.output.find("cannot cancel workloads \"p1\" in namespace \"prod\""),
            std::string::npos)
      << cancel.output;
  const CliRun can_i = allot(member, "auth can-i cancel workloads -n prod");
  EXPECT_EQ(can_i.exit_code, 1);
  EXPECT_TRUE(can_i.output.starts_with("no")) << can_i.output;
  EXPECT_EQ(allot(member, "auth can-i cancel workloads -n research").exit_code, 0);
}

TEST_F(CliLoginTest, AServiceAccountsTokenFromCreateTokenWorksUntilDeleted) {
  apply(kTestPolicy);
  const std::string admin = credentials("admin");
  ASSERT_EQ(allot(admin, "login --token-file " + token_file()).exit_code, 0);

  const CliRun created = allot(admin, "create serviceaccount ci -n research");
  ASSERT_EQ(created.exit_code, 0) << created.output;
  EXPECT_EQ(created.output, "serviceaccount/ci created\n");
  const CliRun issued = allot(admin, "create token ci -n research --duration 1h");
  ASSERT_EQ(issued.exit_code, 0) << issued.output;
  const std::string token = issued.output.substr(0, issued.output.find('\n'));
  ASSERT_TRUE(token.starts_with("allot_")) << issued.output;
  const CliRun listed = allot(admin, "get serviceaccounts -A");
  EXPECT_NE(listed.output.find("research"), std::string::npos) << listed.output;
  EXPECT_EQ(listed.output.find(token), std::string::npos);
  const CliRun tokens = allot(admin, "get tokens --serviceaccount ci -n research");
  EXPECT_NE(tokens.output.find("research.ci.1"), std::string::npos) << tokens.output;

  const CliRun whoami = allot(credentials("ci"), "whoami --token " + token);
  EXPECT_EQ(whoami.exit_code, 0) << whoami.output;
  EXPECT_NE(whoami.output.find("subject: system:serviceaccount:research:ci"), std::string::npos)
      << whoami.output;
  const CliRun refused = allot(credentials("ci"), "get workloads -n research --token " + token);
  EXPECT_NE(refused.exit_code, 0);
  EXPECT_NE(refused.output.find("ServiceAccount \"research/ci\" cannot list workloads"),
            std::string::npos)
      << refused.output;

  const CliRun revoked = allot(admin, "delete token research.ci.1 -n research --serviceaccount ci");
  EXPECT_EQ(revoked.exit_code, 0) << revoked.output;
  EXPECT_NE(allot(credentials("ci"), "whoami --token " + token).exit_code, 0);
  EXPECT_EQ(allot(admin, "delete serviceaccount ci -n research").exit_code, 0);
  EXPECT_NE(allot(admin, "get serviceaccount ci -n research").exit_code, 0);
}

TEST_F(CliLoginTest, WithoutALoginTheCliIsToldToLogIn) {
  const CliRun list = allot(credentials("nobody"), "get workloads -A");

  EXPECT_NE(list.exit_code, 0);
  EXPECT_NE(list.output.find("authentication required"), std::string::npos) << list.output;
}

}  // namespace
}  // namespace allot::server_test
