// `allot auth token [--exec-credential]`: the saved login for kubectl
// (client.authentication.k8s.io/v1 ExecCredential) or as a bare token, and
// a clear error when there is none or it has expired (by an injected clock).
#include "cli/output/exec_credential.h"

#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "api/rfc3339.h"
#include "backends/sim/virtual_executor.h"
#include "base/clock.h"
#include "cli/client/credentials.h"
#include "cli/verbs/cli_app.h"

namespace allot::cli {
namespace {

using nlohmann::json;

constexpr char kServer[] = "http://allot.example:7800";
constexpr char kToken[] = "allots_eyJzdWIiOiJhbmEifQ.c2lnbmF0dXJl";
constexpr char kExpiry[] = "2027-01-15T09:00:00.000Z";

TEST(ExecCredential, IsKubectlsV1ObjectWithTheTokenAndItsExpiry) {
  const json credential = exec_credential(kToken, *parse_rfc3339(kExpiry));

  EXPECT_EQ(credential, (json{{"apiVersion", "client.authentication.k8s.io/v1"},
                              {"kind", "ExecCredential"},
                              {"status", {{"token", kToken}, {"expirationTimestamp", kExpiry}}}}));
}

struct CredentialOutcome {
  int exit_code = -1;
  std::string out;
  std::string err;
};

class AuthTokenTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "allot_auth_token_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".json";
    std::filesystem::remove(path_);
    ::setenv("ALLOT_CREDENTIALS", path_.c_str(), 1);
  }
  void TearDown() override { ::unsetenv("ALLOT_CREDENTIALS"); }

  void save() {
    ASSERT_TRUE(
        save_session(path_, kServer, {kToken, kExpiry, "ana", {"research"}, "research", "viewer"})
            .ok());
  }

  CredentialOutcome run(const std::vector<std::string>& args, Timestamp now) {
    ManualClock clock(now);
    std::ostringstream out;
    std::ostringstream err;
    CliIo io{.out = out,
             .err = err,
             .simulator = sim::virtual_executor_factory(),
             .login = {.clock = &clock}};
    const int code = run_cli(args, std::move(io));
    return {code, out.str(), err.str()};
  }

  std::string path_;
};

TEST_F(AuthTokenTest, PrintsTheSavedSessionAsAnExecCredential) {
  save();

  const CredentialOutcome outcome = run({"auth", "token", "--exec-credential", "--server", kServer},
                                        *parse_rfc3339("2027-01-15T08:00:00Z"));

  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const json printed = json::parse(outcome.out);
  EXPECT_EQ(printed["kind"], "ExecCredential");
  EXPECT_EQ(printed["apiVersion"], "client.authentication.k8s.io/v1");
  EXPECT_EQ(printed["status"]["token"], kToken);
  EXPECT_EQ(printed["status"]["expirationTimestamp"], kExpiry);
}

TEST_F(AuthTokenTest, WithoutTheFlagPrintsTheBareToken) {
  save();

  const CredentialOutcome outcome =
      run({"auth", "token", "--server", kServer}, *parse_rfc3339("2027-01-15T08:00:00Z"));

  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, std::string(kToken) + "\n");
}

TEST_F(AuthTokenTest, AnExpiredLoginIsAnErrorAndPrintsNothingForKubectl) {
  save();

  const CredentialOutcome outcome = run({"auth", "token", "--exec-credential", "--server", kServer},
                                        *parse_rfc3339("2027-01-15T09:00:00Z"));

  EXPECT_NE(outcome.exit_code, 0);
  EXPECT_EQ(outcome.out, "");
  EXPECT_NE(outcome.err.find("the saved login for http://allot.example:7800 expired at " +
                             std::string(kExpiry) + ": run allot login"),
            std::string::npos)
      << outcome.err;
  EXPECT_EQ(outcome.err.find(kToken), std::string::npos);
}

TEST_F(AuthTokenTest, NoSavedLoginIsAnErrorThatSaysToLogIn) {
  const CredentialOutcome outcome = run({"auth", "token", "--exec-credential", "--server", kServer},
                                        *parse_rfc3339("2027-01-15T08:00:00Z"));

  EXPECT_NE(outcome.exit_code, 0);
  EXPECT_EQ(outcome.out, "");
  EXPECT_NE(outcome.err.find("no saved login for http://allot.example:7800: run allot login"),
            std::string::npos)
      << outcome.err;
}

}  // namespace
}  // namespace allot::cli
