// allotd's state survives restarts: a clean stop (SIGTERM) and a crash
// (SIGKILL), both on the same data folder.
#include <chrono>
#include <string>

#include <gtest/gtest.h>

#include "allotd_test.h"

namespace allot::server_test {
namespace {

class DurabilityTest : public AllotdTest {
 protected:
  void SetUp() override {
    AllotdTest::SetUp();
    if (HasFatalFailure()) return;
    apply(kTestPolicy);
  }
};

TEST_F(DurabilityTest, PolicyAndWorkloadsSurviveACleanRestart) {
  const uint64_t done = submit("research", "done")["metadata"]["uid"];
  wait_phase("research", "done", "Succeeded");
  const uint64_t busy =
      submit("research", "busy", {.script = "exec sleep 1000"})["metadata"]["uid"];
  wait_phase("research", "busy", "Running");
  const std::string teams_before = api_.get("/api/v1/teams").body;

  const ProcessExit stopped = allotd_.stop();
  ASSERT_TRUE(stopped.exited && stopped.code == 0 && !stopped.killed_after_deadline)
      << "SIGTERM: exited " << stopped.exited << ", code " << stopped.code << "\n"
      << allotd_.stderr_text();
  ASSERT_EQ(allotd_.start(), "");
  ASSERT_EQ(api_.get("/readyz").status, 200);

  EXPECT_EQ(api_.get("/api/v1/teams").body, teams_before);
  EXPECT_EQ(api_.get("/api/v1/nodes").json["items"].size(), 3u);
  const nlohmann::json finished = workload("research", "done");
  EXPECT_EQ(phase_of(finished), "Succeeded") << finished;
  EXPECT_EQ(finished["metadata"]["uid"], done);
  EXPECT_EQ(event_types("research", "done"),
            (std::vector<std::string>{"Pending", "Admitted", "Running", "Succeeded"}));

  // The running workload was requeued by the restart and runs again.
  const nlohmann::json again = wait_until(
      "research", "busy",
      [](const nlohmann::json& w) {
        return phase_of(w) == "Running" && w["status"].value("restarts", 0) == 1;
      },
      "a second run");
  EXPECT_EQ(again["metadata"]["uid"], busy);

  // uids continue after the highest stored one.
  EXPECT_EQ(submit("prod", "after")["metadata"]["uid"].get<uint64_t>(), busy + 1);
}

// One allotd per data folder (app/data_dir_lock.h): a second one on the
// same folder is refused at start with a message naming it, the first serves
// on, and once the first has stopped the folder is free again.
TEST_F(DurabilityTest, ASecondAllotdOnTheSameFolderIsRefusedUntilTheFirstStops) {
  AllotdProcess second(allotd_.data_dir());
  EXPECT_NE(second.start({}, std::chrono::seconds(10)), "");
  EXPECT_FALSE(second.running());
  EXPECT_NE(second.stderr_text().find("another allotd is running with --data-dir"),
            std::string::npos)
      << second.stderr_text();
  ASSERT_EQ(api_.get("/readyz").status, 200);
  submit("research", "after-refusal");
  wait_phase("research", "after-refusal", "Succeeded");

  const ProcessExit stopped = allotd_.stop();
  ASSERT_TRUE(stopped.exited && stopped.code == 0) << allotd_.stderr_text();
  EXPECT_EQ(second.start(), "") << second.stderr_text();
  EXPECT_TRUE(second.running());
  const ProcessExit second_stopped = second.stop();
  EXPECT_TRUE(second_stopped.exited && second_stopped.code == 0) << second.stderr_text();
}

TEST_F(DurabilityTest, CrashedAllotdRecoversAndKillsOrphanedPods) {
  submit("research", "busy", {.script = "echo pid $$; exec sleep 1000"});
  wait_phase("research", "busy", "Running");
  const std::string first = wait_log("research", "busy", "\n");
  ASSERT_TRUE(first.starts_with("pid ")) << first;
  const pid_t orphan = std::stoi(first.substr(4));

  const ProcessExit crashed = allotd_.kill();
  EXPECT_FALSE(crashed.exited);
  ASSERT_TRUE(process_alive(orphan)) << "the pod outlives a crashed allotd";
  ASSERT_EQ(allotd_.start(), "");

  const nlohmann::json again = wait_until(
      "research", "busy",
      [](const nlohmann::json& w) {
        return phase_of(w) == "Running" && w["status"].value("restarts", 0) == 1;
      },
      "a second run");
  EXPECT_TRUE(eventually([&] { return !process_alive(orphan); }))
      << "the orphaned pod " << orphan << " of the crashed allotd still runs";
  // The second run appends to the pod's log.
  const std::string log = wait_log("research", "busy", "\npid ");
  const pid_t second = std::stoi(log.substr(log.find("\npid ") + 5));
  EXPECT_NE(second, orphan);
  EXPECT_TRUE(process_alive(second)) << log;
  EXPECT_EQ(again["status"]["podSets"][0]["pods"].size(), 1u) << again;
}

}  // namespace
}  // namespace allot::server_test
