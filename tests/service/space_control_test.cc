// Interactive Spaces in allotd's control plane (service/control/
// space_lifecycle.h, docs/spaces.md), with a recording executor whose
// activity readings the test scripts and a manual clock: a Space is
// suspended exactly idleTimeoutSeconds after its last activity, with its
// grace period, releases its quota once stopped, survives a restart
// suspended, and a resume puts it first in its team's queue.
#include <string>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

std::string space_yaml(const std::string& name, const std::string& team, int gpus,
                       int idle_timeout_seconds = 60) {
  return workload_yaml(
      name, team, gpus, 1, "low",
      "  kind: Space\n  idleTimeoutSeconds: " + std::to_string(idle_timeout_seconds) + "\n");
}

ActivitySample cpu(int64_t micros) { return {.cpu_micros = micros, .heartbeat = std::nullopt}; }

class SpaceControlTest : public ControlPlaneTest {
 protected:
  void SetUp() override { apply_policy(); }

  // Submits the notebook Space (idle timeout 60 s) and runs it.
  void start_notebook(int gpus) {
    notebook_ = submit(space_yaml("notebook", "research", gpus), "research");
    executor_.set_activity(notebook_, cpu(1'000'000));
    plane_->loop().run_once();
    plane_->loop().run_once();  // the launch reports arrive
    ASSERT_EQ(phase("research", "notebook"), "Running");
  }

  void later(int seconds) {
    clock_.advance(Duration::seconds(seconds));
    plane_->loop().run_once();
  }

  // Lets the notebook go idle (no activity since it started) and stops it.
  void suspend_notebook() {
    const size_t stops = executor_.stop_count();
    later(61);
    ASSERT_EQ(executor_.stop_count(), stops + 1);
    exit_pods(notebook_, 143, /*stopped=*/true);
    ASSERT_EQ(phase("research", "notebook"), "Suspended");
  }

  uint64_t uid(const std::string& ns, const std::string& name) {
    const Result<nlohmann::json> view = calls_->get_workload(ns, name);
    EXPECT_TRUE(view.ok()) << view.status().to_string();
    return view.ok() ? (*view)["metadata"]["uid"].get<uint64_t>() : 0;
  }

  // Whether the workload holds its quota (Admitted, or Running once its pods reported).
  bool holds(const std::string& ns, const std::string& name) {
    const std::string now = phase(ns, name);
    return now == "Admitted" || now == "Running";
  }

  uint64_t notebook_ = 0;
};

TEST_F(SpaceControlTest, IdleSpaceIsStoppedAtItsTimeoutWithItsGracePeriod) {
  start_notebook(8);
  later(30);
  executor_.set_activity(notebook_, cpu(1'000'000 + 20'000));  // a prompt waking: not activity
  later(29);
  EXPECT_EQ(executor_.stop_count(), 0u) << "59 s idle of 60";
  later(1);
  ASSERT_EQ(executor_.stop_count(), 1u);
  EXPECT_EQ(executor_.stops[0], std::make_pair(notebook_, Duration::seconds(30)));
  const nlohmann::json stopping = *calls_->get_workload("research", "notebook");
  EXPECT_EQ(stopping["status"]["phase"], "Running");
  EXPECT_EQ(stopping["status"]["stopReason"], "Idle") << stopping;
  exit_pods(notebook_, 143, /*stopped=*/true);
  const nlohmann::json suspended = *calls_->get_workload("research", "notebook");
  EXPECT_EQ(suspended["status"]["phase"], "Suspended");
  EXPECT_EQ(suspended["status"]["reason"], "Idle");
  EXPECT_EQ(suspended["status"]["restarts"], 0);
  EXPECT_EQ(event_types("research", "notebook").back(), "Suspended");
}

TEST_F(SpaceControlTest, ActivityMovesTheDeadline) {
  start_notebook(8);
  later(50);
  executor_.set_activity(notebook_, cpu(2'000'000));  // a second of CPU: activity now
  later(5);
  later(50);
  EXPECT_EQ(executor_.stop_count(), 0u) << "55 s after the last activity";
  executor_.set_activity(notebook_, {.cpu_micros = 2'000'000, .heartbeat = clock_.now()});
  later(59);
  EXPECT_EQ(executor_.stop_count(), 0u) << "the heartbeat is activity";
  later(1);
  EXPECT_EQ(executor_.stop_count(), 1u);
}

TEST_F(SpaceControlTest, WithoutAReadingNothingIsSuspended) {
  notebook_ = submit(space_yaml("notebook", "research", 8), "research");
  plane_->loop().run_once();
  later(3600);
  EXPECT_EQ(executor_.stop_count(), 0u);
  EXPECT_EQ(phase("research", "notebook"), "Running");
}

TEST_F(SpaceControlTest, SuspendedSpaceReleasesItsQuotaAndIsNotQueued) {
  start_notebook(8);
  submit(workload_yaml("prod-job", "prod", 8), "prod");
  submit(workload_yaml("job", "research", 8), "research");
  later(1);
  ASSERT_TRUE(holds("prod", "prod-job"));
  ASSERT_EQ(phase("research", "job"), "Pending") << "research's 8 GPUs are the notebook's";
  suspend_notebook();
  later(1);
  EXPECT_TRUE(holds("research", "job")) << "the notebook's GPUs went to job";
  EXPECT_EQ(phase("research", "notebook"), "Suspended") << "not queued again by itself";
}

TEST_F(SpaceControlTest, SuspensionSurvivesARestartAndResumeRequeues) {
  start_notebook(8);
  suspend_notebook();
  restart();
  EXPECT_EQ(phase("research", "notebook"), "Suspended");
  later(1);
  EXPECT_EQ(phase("research", "notebook"), "Suspended");
  const Result<nlohmann::json> resumed = calls_->resume_workload("research", "notebook");
  ASSERT_TRUE(resumed.ok()) << resumed.status().to_string();
  EXPECT_EQ((*resumed)["status"]["phase"], "Pending");
  EXPECT_EQ((*resumed)["status"]["reason"], "Resumed");
  restart();
  EXPECT_EQ(phase("research", "notebook"), "Pending") << "the resume is stored";
  later(1);
  later(1);
  EXPECT_EQ(phase("research", "notebook"), "Running");
  EXPECT_EQ(calls_->resume_workload("research", "notebook").status().code(),
            ErrorCode::kFailedPrecondition)
      << "only a suspended Space can be resumed";
}

TEST_F(SpaceControlTest, ResumedSpaceGoesBeforeWorkQueuedBeforeIt) {
  // prod holds one node; research's node runs filler-1 (6 GPUs). wide (6)
  // waits; the notebook (2), submitted after wide, fits beside filler-1.
  submit(workload_yaml("prod-job", "prod", 8), "prod");
  submit(workload_yaml("filler-1", "research", 6), "research");
  later(1);
  later(1);
  submit(workload_yaml("wide", "research", 6), "research");
  later(1);
  ASSERT_EQ(phase("research", "wide"), "Pending");
  start_notebook(2);
  suspend_notebook();
  submit(workload_yaml("filler-2", "research", 2), "research");
  later(1);
  ASSERT_TRUE(holds("research", "filler-2"));
  ASSERT_TRUE(calls_->resume_workload("research", "notebook").ok());
  later(1);
  ASSERT_EQ(phase("research", "notebook"), "Pending") << "no room yet";
  // filler-1 ends: 6 GPUs. The notebook is first; wide no longer fits.
  exit_pods(uid("research", "filler-1"), 0);
  later(1);
  EXPECT_TRUE(holds("research", "notebook")) << phase("research", "notebook");
  EXPECT_EQ(phase("research", "wide"), "Pending");
}

TEST_F(SpaceControlTest, CancelOfASuspendedSpaceIsImmediate) {
  start_notebook(8);
  suspend_notebook();
  const Result<nlohmann::json> cancelled = calls_->cancel_workload("research", "notebook");
  ASSERT_TRUE(cancelled.ok()) << cancelled.status().to_string();
  EXPECT_EQ(phase("research", "notebook"), "Cancelled");
}

}  // namespace
}  // namespace allot::testing
