#include "backends/local/health_checker.h"

#include <chrono>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace allot::local {
namespace {

std::vector<NodeHealthReport> check(const std::string& command, std::vector<std::string> nodes,
                                    Duration timeout = Duration::seconds(20)) {
  LocalHealthChecker checker(LocalHealthCheckerOptions{command, timeout});
  return checker.check(nodes);
}

TEST(LocalHealthChecker, EmptyCommandReportsEveryNodeHealthy) {
  const std::vector<NodeHealthReport> expected = {{"n1", true, ""}, {"n2", true, ""}};
  EXPECT_EQ(check("", {"n1", "n2"}), expected);
}

TEST(LocalHealthChecker, ZeroExitIsHealthy) {
  const std::vector<NodeHealthReport> expected = {{"n1", true, ""}};
  EXPECT_EQ(check("echo fine; exit 0", {"n1"}), expected);
}

TEST(LocalHealthChecker, FailureIsUnhealthyWithTheFirstLineOfItsOutputAsReason) {
  const std::vector<NodeHealthReport> expected = {{"n1", false, "disk /data is full"}};
  EXPECT_EQ(check("echo; echo 'disk /data is full' >&2; echo more; exit 3", {"n1"}), expected);
}

TEST(LocalHealthChecker, SilentFailureSaysHowItEnded) {
  EXPECT_EQ(check("exit 4", {"n1"})[0].reason, "health check exited with code 4");
  EXPECT_EQ(check("kill -9 $$", {"n1"})[0].reason, "health check killed by signal 9");
}

TEST(LocalHealthChecker, EachCheckSeesItsNodeInOrder) {
  const std::vector<NodeHealthReport> expected = {
      {"gpu-1", true, ""}, {"gpu-2", false, "unexpected node gpu-2"}, {"gpu-1", true, ""}};
  EXPECT_EQ(check("test \"$ALLOT_NODE\" = gpu-1 || { echo \"unexpected node $ALLOT_NODE\"; "
                  "exit 1; }",
                  {"gpu-1", "gpu-2", "gpu-1"}),
            expected);
}

TEST(LocalHealthChecker, HangingCheckTimesOutAndItsProcessGroupIsKilled) {
  const auto start = std::chrono::steady_clock::now();
  // The background sleep holds the output pipe open: only a group kill ends it.
  const std::vector<NodeHealthReport> reports =
      check("sleep 60 & sleep 60", {"n1"}, Duration::millis(300));
  const auto elapsed = std::chrono::steady_clock::now() - start;
  const std::vector<NodeHealthReport> expected = {
      {"n1", false, "health check timed out after 300ms"}};
  EXPECT_EQ(reports, expected);
  EXPECT_GE(elapsed, std::chrono::milliseconds(300));
  EXPECT_LT(elapsed, std::chrono::seconds(10));
}

TEST(LocalHealthChecker, CheckThatExitsEarlyDoesNotWaitForItsBackgroundChildren) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<NodeHealthReport> expected = {{"n1", true, ""}};
  EXPECT_EQ(check("sleep 60 & exit 0", {"n1"}), expected);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));
}

}  // namespace
}  // namespace allot::local
