// create serviceaccount, create token, get serviceaccounts, get tokens,
// delete serviceaccount and delete token against FakeAllotd: the requests
// they send and what they print (the token once, on stdout alone).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "fake_allotd.h"

namespace allot::cli::testing {
namespace {

using nlohmann::json;

const std::string kToken = "allot_" + std::string(43, 'Q');
const std::string kAccounts = "/api/v1/namespaces/research/serviceaccounts";

json account(const std::string& ns, const std::string& name, int tokens) {
  json items = json::array();
  for (int i = 1; i <= tokens; ++i) {
    items.push_back({{"id", ns + "." + name + "." + std::to_string(i)},
                     {"createdAt", "2026-01-01T00:00:00.000Z"},
                     {"expired", false}});
  }
  return {{"apiVersion", "allot/v1"},
          {"kind", "ServiceAccount"},
          {"metadata",
           {{"name", name}, {"namespace", ns}, {"creationTimestamp", "2026-01-01T00:00:00.000Z"}}},
          {"subject", "system:serviceaccount:" + ns + ":" + name},
          {"tokens", items}};
}

class ServiceAccountVerbs : public ::testing::Test {
 protected:
  CliOutcome allot(std::vector<std::string> args) {
    args.push_back("--server");
    args.push_back(server_.url());
    return run_allot(args);
  }

  FakeAllotd server_;
};

TEST_F(ServiceAccountVerbs, CreateServiceAccountPostsItsName) {
  server_.reply("POST", kAccounts, 201, account("research", "ci", 0));

  const CliOutcome outcome = allot({"create", "serviceaccount", "ci", "-n", "research"});

  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "serviceaccount/ci created\n");
  const auto requests = server_.requests_to("POST", kAccounts);
  ASSERT_EQ(requests.size(), 1U);
  EXPECT_EQ(json::parse(requests[0].body), json({{"name", "ci"}}));
}

TEST_F(ServiceAccountVerbs, CreateTokenPrintsTheTokenAloneOnStdout) {
  server_.reply("POST", kAccounts + "/ci/tokens", 201,
                {{"id", "research.ci.1"},
                 {"token", kToken},
                 {"createdAt", "2026-01-01T00:00:00.000Z"},
                 {"expiresAt", "2026-01-02T00:00:00.000Z"}});

  const CliOutcome outcome =
      allot({"create", "token", "ci", "-n", "research", "--duration", "24h"});

  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, kToken + "\n");
  EXPECT_NE(outcome.err.find("research.ci.1"), std::string::npos) << outcome.err;
  EXPECT_EQ(outcome.err.find(kToken), std::string::npos);
  const auto requests = server_.requests_to("POST", kAccounts + "/ci/tokens");
  ASSERT_EQ(requests.size(), 1U);
  EXPECT_EQ(json::parse(requests[0].body), json({{"expirationSeconds", 86400}}));
}

TEST_F(ServiceAccountVerbs, CreateTokenWithoutADurationAsksForNone) {
  server_.reply("POST", kAccounts + "/ci/tokens", 201,
                {{"id", "research.ci.2"}, {"token", kToken}});

  const CliOutcome outcome = allot({"create", "token", "ci", "-n", "research"});

  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(json::parse(server_.requests().at(0).body), json::object());
  EXPECT_EQ(allot({"create", "token", "ci", "-n", "research", "--duration", "soon"}).exit_code, 2);
  EXPECT_EQ(allot({"create", "token", "ci"}).exit_code, 2) << "the namespace is required";
}

TEST_F(ServiceAccountVerbs, ARefusedTokenIsAnErrorAndPrintsNoToken) {
  server_.reply_error("POST", kAccounts + "/ci/tokens", 403, "permission_denied",
                      "User \"ana\" cannot create serviceaccounts/token \"ci\" in namespace "
                      "\"research\": no binding grants it");

  const CliOutcome outcome = allot({"create", "token", "ci", "-n", "research"});

  EXPECT_NE(outcome.exit_code, 0);
  EXPECT_EQ(outcome.out, "");
  EXPECT_NE(outcome.err.find("cannot create serviceaccounts/token"), std::string::npos);
}

TEST_F(ServiceAccountVerbs, GetServiceAccountsListsEveryNamespaceOrOne) {
  server_.reply("GET", "/api/v1/serviceaccounts", 200,
                {{"items", {account("prod", "deploy", 0), account("research", "ci", 2)}}});
  server_.reply("GET", kAccounts, 200, {{"items", {account("research", "ci", 2)}}});

  const CliOutcome all = allot({"get", "serviceaccounts", "-A"});
  const CliOutcome one_namespace = allot({"get", "sa", "-n", "research"});

  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_NE(all.out.find("NAME    NAMESPACE  TOKENS  AGE"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("deploy  prod       0"), std::string::npos) << all.out;
  EXPECT_NE(all.out.find("ci      research   2"), std::string::npos) << all.out;
  EXPECT_EQ(one_namespace.exit_code, 0) << one_namespace.err;
  EXPECT_EQ(server_.requests_to("GET", kAccounts).size(), 1U);
}

TEST_F(ServiceAccountVerbs, GetOneServiceAccountAsYamlAndItsTokensAsATable) {
  server_.reply("GET", kAccounts + "/ci", 200, account("research", "ci", 1));
  server_.reply("GET", kAccounts + "/ci/tokens", 200,
                {{"items",
                  {{{"id", "research.ci.1"},
                    {"createdAt", "2026-01-01T00:00:00.000Z"},
                    {"expiresAt", "2026-01-02T00:00:00.000Z"},
                    {"expired", true}}}}});

  const CliOutcome yaml = allot({"get", "serviceaccount", "ci", "-n", "research", "-o", "yaml"});
  const CliOutcome tokens = allot({"get", "tokens", "--serviceaccount", "ci", "-n", "research"});

  EXPECT_EQ(yaml.exit_code, 0) << yaml.err;
  EXPECT_NE(yaml.out.find("subject: system:serviceaccount:research:ci"), std::string::npos)
      << yaml.out;
  EXPECT_EQ(tokens.exit_code, 0) << tokens.err;
  EXPECT_NE(tokens.out.find("ID"), std::string::npos);
  EXPECT_NE(tokens.out.find("research.ci.1"), std::string::npos) << tokens.out;
  EXPECT_NE(tokens.out.find("2026-01-02T00:00:00.000Z  Expired"), std::string::npos) << tokens.out;
}

TEST_F(ServiceAccountVerbs, MissingNamespacesAndMisplacedFlagsAreUsageErrors) {
  EXPECT_EQ(allot({"get", "serviceaccount", "ci"}).exit_code, 2);
  EXPECT_EQ(allot({"get", "tokens", "-n", "research"}).exit_code, 2);
  EXPECT_EQ(allot({"get", "sa", "-n", "research", "-A"}).exit_code, 2);
  EXPECT_EQ(allot({"get", "sa", "--phase", "Running"}).exit_code, 2);
  EXPECT_EQ(allot({"get", "teams", "--serviceaccount", "ci"}).exit_code, 2);
  EXPECT_EQ(allot({"delete", "token", "research.ci.1", "-n", "research"}).exit_code, 2);
  EXPECT_EQ(allot({"delete", "team", "prod", "--serviceaccount", "ci"}).exit_code, 2);
  EXPECT_TRUE(server_.requests().empty()) << "nothing sent";
}

TEST_F(ServiceAccountVerbs, DeleteServiceAccountAndDeleteTokenUseTheirPaths) {
  server_.reply("DELETE", kAccounts + "/ci", 200, {{"deleted", "research/ci"}});
  server_.reply("DELETE", kAccounts + "/ci/tokens/research.ci.1", 200,
                {{"deleted", "research.ci.1"}});

  const CliOutcome token =
      allot({"delete", "token", "research.ci.1", "-n", "research", "--serviceaccount", "ci"});
  const CliOutcome sa = allot({"delete", "serviceaccount", "ci", "-n", "research"});

  EXPECT_EQ(token.exit_code, 0) << token.err;
  EXPECT_EQ(token.out, "token/research.ci.1 deleted\n");
  EXPECT_EQ(sa.exit_code, 0) << sa.err;
  EXPECT_EQ(sa.out, "serviceaccount/ci deleted\n");
}

}  // namespace
}  // namespace allot::cli::testing
