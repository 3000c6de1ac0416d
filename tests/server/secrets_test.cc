// Issue 10: secrets never logged. A workload's environment values are
// secrets (tokens, keys): allotd at its most verbose (--log-level debug)
// must not write them to its log, whatever happens to the workload: it runs,
// succeeds, fails, is cancelled. scripts/check-secrets.sh also searches
// every allotd log of the whole test run for the values the tests plant.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "allotd_test.h"

namespace allot::server_test {
namespace {

constexpr const char* kCanary = "allot-canary-secret-env-0a77";

class SecretsTest : public AllotdTest {
 protected:
  std::vector<std::string> allotd_flags() override { return {"--log-level", "debug"}; }

  void submit_with_secret(const std::string& ns, const std::string& name,
                          const WorkloadSpec& spec) {
    nlohmann::json workload = workload_json(name, spec);
    workload["spec"]["env"] = {{"API_TOKEN", kCanary}, {"OTHER", "plain"}};
    const Reply reply = api_.post_json("/api/v1/namespaces/" + ns + "/workloads", workload);
    ASSERT_EQ(reply.status, 201) << reply.status;
  }
};

TEST_F(SecretsTest, EnvironmentValuesStayOutOfAllotdsLogWhateverHappensToTheWork) {
  apply(kTestPolicy);
  submit_with_secret("research", "fails", {.script = "echo started; exit 3", .gpus = 1});
  submit_with_secret("research", "cancelled", {.script = "sleep 600", .gpus = 1});
  wait_phase("research", "fails", "Failed");
  wait_phase("research", "cancelled", "Running");
  ASSERT_EQ(api_.post("/api/v1/namespaces/research/workloads/cancelled/cancel").status, 200);
  wait_phase("research", "cancelled", "Cancelled");
  submit_with_secret("prod", "runs", {.script = "echo done", .gpus = 4, .priority = "high"});
  wait_phase("prod", "runs", "Succeeded");
  ASSERT_EQ(api_.get("/api/v1/namespaces/research/workloads/fails/events").status, 200);

  const ProcessExit exit = allotd_.stop();

  ASSERT_TRUE(exit.exited && exit.code == 0);
  const std::string log = allotd_.stderr_text();
  EXPECT_NE(log.find("allotd started"), std::string::npos) << "the log was read";
  EXPECT_EQ(log.find(kCanary), std::string::npos) << "allotd logged an environment value";
}

}  // namespace
}  // namespace allot::server_test
