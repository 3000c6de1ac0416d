// `allot scale` against FakeAllotd: the body it sends, what it prints, and
// its refusals (cli/verbs/scale_command.h).
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_run.h"
#include "fake_allotd.h"

namespace allot::cli::testing {
namespace {

using nlohmann::json;

constexpr const char* kScale = "/api/v1/namespaces/serving/workloads/chat/scale";

json endpoint(int desired) {
  return {{"metadata", {{"name", "chat"}, {"namespace", "serving"}}},
          {"status", {{"replicas", {{"desired", desired}, {"admitted", 1}, {"ready", 1}}}}}};
}

class ScaleVerb : public ::testing::Test {
 protected:
  CliOutcome allot(std::vector<std::string> args) {
    args.push_back("--server");
    args.push_back(server_.url());
    return run_allot(args, "");
  }

  FakeAllotd server_;
};

TEST_F(ScaleVerb, ReplicasArePostedAndTheDesiredCountPrinted) {
  server_.reply("POST", kScale, 200, endpoint(3));
  const CliOutcome outcome = allot({"scale", "chat", "-n", "serving", "--replicas", "3"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "workload/chat scaled to 3 replicas\n");
  const auto sent = server_.requests_to("POST", kScale);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(json::parse(sent[0].body), json({{"replicas", 3}}));
}

TEST_F(ScaleVerb, ASignalReadingIsPostedAsSuch) {
  server_.reply("POST", kScale, 200, endpoint(5));
  const CliOutcome outcome = allot({"scale", "serving/chat", "--signal", "42.5"});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_EQ(outcome.out, "workload/chat scaled to 5 replicas\n");
  const auto sent = server_.requests_to("POST", kScale);
  ASSERT_EQ(sent.size(), 1u);
  EXPECT_EQ(json::parse(sent[0].body), json({{"signal", 42.5}}));
}

TEST_F(ScaleVerb, NeedsReplicasOrASignalAndReportsAllotdsRefusal) {
  EXPECT_NE(allot({"scale", "serving/chat"}).exit_code, 0);
  EXPECT_TRUE(server_.requests_to("POST", kScale).empty());
  server_.reply_error("POST", kScale, 400, "invalid_argument", "replicas must lie within [1, 3]",
                      "replicas");
  const CliOutcome outcome = allot({"scale", "serving/chat", "--replicas", "9"});
  EXPECT_EQ(outcome.exit_code, 2);
  EXPECT_EQ(outcome.err, "error: replicas must lie within [1, 3] (at replicas)\n");
}

}  // namespace
}  // namespace allot::cli::testing
