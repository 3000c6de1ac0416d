// Checkpoint and resume through a real allotd and real pods (issue 12): a
// workload with `checkpoint: {env: ALLOT_CHECKPOINT_DIR}` writes into its
// folder, is preempted (or allotd restarts under it), and its next run sees
// the same folder, its file, and ALLOT_RESTART_COUNT=1. The folder is in its
// team's storage. POST .../checkpoint records the time it reports.
#include <string>

#include <gtest/gtest.h>

#include "allotd_test.h"

namespace allot::server_test {
namespace {

// Prints its run and folder; a first run writes a checkpoint and keeps
// running, a later one reports what it found and ends.
const std::string kResumingScript =
    "echo \"run $ALLOT_RESTART_COUNT in $ALLOT_CHECKPOINT_DIR\"; "
    "if [ -f \"$ALLOT_CHECKPOINT_DIR/step\" ]; then "
    "echo \"resumed at step $(cat \"$ALLOT_CHECKPOINT_DIR/step\")\"; exit 0; fi; "
    "echo 7 > \"$ALLOT_CHECKPOINT_DIR/step\" && echo written; exec sleep 1000";

class CheckpointTest : public AllotdTest {
 protected:
  void SetUp() override {
    AllotdTest::SetUp();
    if (HasFatalFailure()) return;
    apply(kTestPolicy);
  }

  uint64_t submit_checkpointing(const std::string& ns, const std::string& name, int gpus) {
    nlohmann::json manifest = workload_json(name, {.script = kResumingScript, .gpus = gpus});
    manifest["spec"]["checkpoint"] = {{"env", "ALLOT_CHECKPOINT_DIR"}};
    const Reply reply = api_.post_json("/api/v1/namespaces/" + ns + "/workloads", manifest);
    EXPECT_EQ(reply.status, 201) << reply.describe();
    return reply.json["metadata"].value("uid", uint64_t{0});
  }

  // The folder the workload's runs are given: in its team's storage.
  std::string folder_of(const std::string& team, const std::string& name, uint64_t uid) const {
    return (allotd_.data_dir() / "teams" / team / "checkpoints" / team).string() + "/" + name +
           "-" + std::to_string(uid);
  }
};

TEST_F(CheckpointTest, APreemptedWorkloadResumesFromItsCheckpointFolder) {
  // research borrows prod's 4 GPUs: `fill` (8) first, then `train` (4).
  submit("research", "fill", {.script = "exec sleep 1000", .gpus = 4, .pods = 2});
  wait_phase("research", "fill", "Running");
  const uint64_t uid = submit_checkpointing("research", "train", 4);
  wait_log("research", "train", "written");
  const std::string folder = folder_of("research", "train", uid);

  // prod takes its quota back: the most recently started borrower goes.
  submit("prod", "urgent", {.script = "sleep 1", .gpus = 4, .priority = "high"});
  wait_phase("prod", "urgent", "Succeeded");
  const nlohmann::json train = wait_phase("research", "train", "Succeeded");
  EXPECT_EQ(train["status"]["restarts"], 1) << train;

  const std::string log = wait_log("research", "train", "resumed at step 7");
  EXPECT_NE(log.find("run 0 in " + folder + "\n"), std::string::npos) << log;
  EXPECT_NE(log.find("run 1 in " + folder + "\nresumed at step 7\n"), std::string::npos) << log;
  EXPECT_EQ(phase_of(workload("research", "fill")), "Running") << "fill was not the victim";
}

TEST_F(CheckpointTest, AResumedRunAfterARestartOfAllotdSeesItsCheckpoint) {
  const uint64_t uid = submit_checkpointing("research", "train", 4);
  wait_log("research", "train", "written");

  allotd_.stop();
  ASSERT_EQ(allotd_.start(), "");

  const nlohmann::json train = wait_phase("research", "train", "Succeeded");
  EXPECT_EQ(train["status"]["restarts"], 1) << train;
  const std::string log = wait_log("research", "train", "resumed at step 7");
  EXPECT_NE(log.find("run 1 in " + folder_of("research", "train", uid) + "\nresumed at step 7\n"),
            std::string::npos)
      << log;
}

TEST_F(CheckpointTest, ARunningWorkloadReportsACheckpointOverTheApi) {
  submit("research", "huge", {.gpus = 4, .pods = 4});  // 16 GPUs: never admitted
  EXPECT_EQ(api_.post_json("/api/v1/namespaces/research/workloads/huge/checkpoint",
                           nlohmann::json::object())
                .status,
            409)
      << "only a running workload reports checkpoints";
  submit("research", "busy", {.script = "exec sleep 1000"});
  wait_phase("research", "busy", "Running");
  const std::string path = "/api/v1/namespaces/research/workloads/busy/checkpoint";

  const Reply reported = api_.post_json(path, {{"at", "2026-01-02T03:04:05Z"}});
  ASSERT_EQ(reported.status, 200) << reported.describe();
  EXPECT_EQ(reported.json["status"]["lastCheckpointAt"], "2026-01-02T03:04:05.000Z");
  EXPECT_EQ(workload("research", "busy")["status"]["lastCheckpointAt"], "2026-01-02T03:04:05.000Z");
  EXPECT_EQ(api_.post_json(path, {{"at", "yesterday"}}).status, 400);
  EXPECT_EQ(api_.post_json("/api/v1/namespaces/research/workloads/nobody/checkpoint",
                           nlohmann::json::object())
                .status,
            404);
}

}  // namespace
}  // namespace allot::server_test
