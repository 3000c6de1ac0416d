// Checkpoint and resume in allotd's control plane (issue 12), with a
// recording executor and a manual clock: the checkpoint folder and
// ALLOT_RESTART_COUNT a run is given, and the last checkpoint a workload
// reports (POST .../checkpoint, or its folder's newest file) deciding which
// of two equal-priority workloads is preempted (least work lost).
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "api/rfc3339.h"
#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

const std::string kCheckpoint = "  checkpoint: {env: CKPT}\n";

class CheckpointControlTest : public ControlPlaneTest {
 protected:
  // prod runs `old` (8 GPUs) and, a minute later, `young` (8 GPUs, borrowed
  // from research); both low priority and checkpointing.
  void SetUp() override {
    executor_.keeps_checkpoints = true;
    apply_policy();
    old_ = submit(workload_yaml("old", "prod", 8, 1, "low", kCheckpoint), "prod");
    plane_->loop().run_once();
    clock_.advance(Duration::seconds(60));
    young_ = submit(workload_yaml("young", "prod", 8, 1, "low", kCheckpoint), "prod");
    plane_->loop().run_once();
    plane_->loop().run_once();  // the launch reports arrive
    ASSERT_EQ(phase("prod", "old"), "Running");
    ASSERT_EQ(phase("prod", "young"), "Running");
    clock_.advance(Duration::seconds(600));
  }

  // prod's high-priority `urgent` (8 GPUs) needs one of them gone.
  uint64_t victim_of_urgent() {
    urgent_ = submit(workload_yaml("urgent", "prod", 8, 1, "high"), "prod");
    plane_->loop().run_once();
    EXPECT_EQ(executor_.stops.size(), 1u);
    return executor_.stops.empty() ? 0 : executor_.stops.front().first;
  }

  const WorkloadLaunch& last_launch_of(uint64_t uid) {
    const WorkloadLaunch* found = nullptr;
    for (const WorkloadLaunch& launch : executor_.workload_launches) {
      if (launch.workload.value() == uid) found = &launch;
    }
    EXPECT_NE(found, nullptr);
    return *found;
  }

  uint64_t old_ = 0;
  uint64_t young_ = 0;
  uint64_t urgent_ = 0;
};

TEST_F(CheckpointControlTest, WithoutReportsTheMostRecentlyStartedIsTheVictim) {
  EXPECT_EQ(victim_of_urgent(), young_);
}

TEST_F(CheckpointControlTest, AReportedCheckpointMakesTheOlderWorkloadTheVictim) {
  const Result<nlohmann::json> reported = calls_->report_checkpoint("prod", "old");
  ASSERT_TRUE(reported.ok()) << reported.status().to_string();
  EXPECT_EQ((*reported)["status"]["lastCheckpointAt"], format_rfc3339(clock_.now()));
  clock_.advance(Duration::seconds(5));
  // old would lose 5 s, young the 10 minutes since it started.
  EXPECT_EQ(victim_of_urgent(), old_);
}

TEST_F(CheckpointControlTest, AReportedTimeToComeCountsAsNowAndAnOlderOneChangesNothing) {
  const Timestamp now = clock_.now();
  ASSERT_TRUE(calls_->report_checkpoint("prod", "old", now + Duration::hours(1)).ok());
  const Result<nlohmann::json> older =
      calls_->report_checkpoint("prod", "old", now - Duration::seconds(30));
  ASSERT_TRUE(older.ok());
  EXPECT_EQ((*older)["status"]["lastCheckpointAt"], format_rfc3339(now));
}

TEST_F(CheckpointControlTest, OnlyARunningWorkloadReportsCheckpoints) {
  submit(workload_yaml("waiting", "research", 8), "research");  // no room left
  const Result<nlohmann::json> refused = calls_->report_checkpoint("research", "waiting");
  EXPECT_EQ(refused.status().code(), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(calls_->report_checkpoint("prod", "nobody").status().code(), ErrorCode::kNotFound);
}

TEST_F(CheckpointControlTest, TheNewestFileInTheFolderIsTheLastCheckpoint) {
  const std::string folder = last_launch_of(old_).checkpoint_dir;
  ASSERT_FALSE(folder.empty());
  executor_.checkpoint_times[folder] = clock_.now() - Duration::seconds(2);
  plane_->loop().run_once();  // the scan is due (10 s passed)
  const nlohmann::json old = *calls_->get_workload("prod", "old");
  EXPECT_EQ(old["status"]["lastCheckpointAt"], format_rfc3339(clock_.now() - Duration::seconds(2)));
  EXPECT_EQ(victim_of_urgent(), old_);
}

TEST_F(CheckpointControlTest, AResumedRunGetsTheSameFolderAndItsRestartCount) {
  const WorkloadLaunch& first = last_launch_of(young_);
  ASSERT_FALSE(first.checkpoint_dir.empty());
  EXPECT_EQ(first.env.at("CKPT"), first.checkpoint_dir);
  EXPECT_EQ(first.env.at("ALLOT_RESTART_COUNT"), "0");
  const std::string folder = first.checkpoint_dir;

  ASSERT_EQ(victim_of_urgent(), young_);
  exit_pods(young_, 143, /*stopped=*/true);
  ASSERT_EQ(phase("prod", "young"), "Preempted");
  ASSERT_EQ(phase("prod", "urgent"), "Admitted");
  clock_.advance(Duration::seconds(1));
  exit_pods(urgent_, 0);  // urgent is done: young runs again
  ASSERT_EQ(phase("prod", "young"), "Admitted");
  const WorkloadLaunch& second = last_launch_of(young_);
  EXPECT_EQ(second.checkpoint_dir, folder);
  EXPECT_EQ(second.env.at("CKPT"), folder);
  EXPECT_EQ(second.env.at("ALLOT_RESTART_COUNT"), "1");
}

TEST_F(CheckpointControlTest, ARestartOfAllotdCountsAsARestartAndKeepsTheReportedCheckpoint) {
  ASSERT_TRUE(calls_->report_checkpoint("prod", "old").ok());
  const std::string reported = format_rfc3339(clock_.now());
  restart();
  plane_->loop().run_once();
  const nlohmann::json old = *calls_->get_workload("prod", "old");
  EXPECT_EQ(old["status"]["lastCheckpointAt"], reported);
  EXPECT_EQ(old["status"]["restarts"], 1);
  ASSERT_EQ(phase("prod", "old"), "Admitted");
  const WorkloadLaunch& resumed = last_launch_of(old_);
  EXPECT_EQ(resumed.env.at("ALLOT_RESTART_COUNT"), "1");
  EXPECT_EQ(resumed.env.at("CKPT"), resumed.checkpoint_dir);
}

}  // namespace
}  // namespace allot::testing
