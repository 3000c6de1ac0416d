// allotd's restart and a backend that keeps jobs (Slurm): the launch that
// resumes an interrupted run names the run's backend job, and only that run's,
// or, when that job was never stored, the run's admission.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

// A backend that keeps jobs (Slurm) may have run the interrupted run's job
// to its end while allotd was down: the launch that resumes the run names
// that job (stored in status.backend, so even after a second restart) and
// the backend takes it over instead of submitting the run again. A later run of the workload (here
// after its pod was lost) starts without the old job: its launch names none.
TEST_F(ControlPlaneTest, ARestartResumesTheRunWithItsBackendJobAndALaterRunNamesNone) {
  apply_policy();
  const uint64_t uid = submit(workload_yaml("job", "prod", 1), "prod");
  executor_.set_backend_job(uid, BackendJob{"slurm", "7", "RUNNING", "None", "", ""});
  plane_->loop().run_once();  // admits and launches
  plane_->loop().run_once();  // the start report: job 7 is stored
  ASSERT_EQ(calls_->get_workload("prod", "job")->at("status")["backend"]["jobId"], "7");
  ASSERT_EQ(executor_.workload_launches.size(), 1u);
  EXPECT_EQ(executor_.workload_launches[0].resume_job, "");

  restart();
  restart();  // a second restart before the run is admitted again keeps the job to resume
  plane_->loop().run_once();
  ASSERT_EQ(executor_.workload_launches.size(), 2u);
  EXPECT_EQ(executor_.workload_launches[1].resume_job, "7");
  plane_->loop().run_once();
  EXPECT_EQ(phase("prod", "job"), "Running");

  EXPECT_EQ(executor_.workload_launches[1].resume_since, std::nullopt) << "its job is known";

  executor_.forget_backend_job(uid);  // the next run's job is not known yet
  clock_.advance(Duration::seconds(5));
  const Timestamp third_run_admitted = clock_.now();  // the lost pod's run is admitted again now
  PodEvent lost = exited(uid, 0, 0, 9, false);
  lost.lost = true;
  plane_->on_pod_event(lost);
  plane_->loop().run_once();
  plane_->loop().run_once();
  ASSERT_EQ(executor_.workload_launches.size(), 3u);
  EXPECT_EQ(executor_.workload_launches[2].resume_job, "");
  EXPECT_EQ(executor_.workload_launches[2].resume_since, std::nullopt) << "not a resumed run";
  EXPECT_TRUE(calls_->get_workload("prod", "job")->at("status")["backend"].is_null())
      << "job 7 was the previous run's";

  // This run's job id was never stored (allotd stopped first): the launch
  // that resumes it names the run's admission, for the backend to look for
  // a job submitted since then.
  clock_.advance(Duration::seconds(30));
  restart();
  plane_->loop().run_once();
  ASSERT_EQ(executor_.workload_launches.size(), 4u);
  EXPECT_EQ(executor_.workload_launches[3].resume_job, "");
  EXPECT_EQ(executor_.workload_launches[3].resume_since, third_run_admitted);
  EXPECT_EQ(executor_.workload_launches[0].resume_since, std::nullopt) << "a first run";
}

// With turnover handovers (a backend that holds jobs ready), a run that
// waits to resume is not handed to the backend ahead of its admission: its
// launch takes its job over, named (`job_stored`) or looked up since the
// run's admission. A fresh workload in the same place is handed over.
class ControlPlaneResumeTest : public ControlPlaneTest {
 protected:
  void expect_a_run_to_resume_is_not_handed_over(bool job_stored);
};

void ControlPlaneResumeTest::expect_a_run_to_resume_is_not_handed_over(bool job_stored) {
  scheduler_options_.turnover_handovers = true;
  executor_.accept_handovers = true;
  restart();
  apply_policy();
  submit(workload_yaml("filler", "research", 8), "research");
  const uint64_t resumed = submit(workload_yaml("resumed", "prod", 8), "prod");
  if (job_stored) {
    executor_.set_backend_job(resumed, BackendJob{"slurm", "7", "RUNNING", "None", "", ""});
  }
  plane_->loop().run_once();
  plane_->loop().run_once();
  ASSERT_EQ(phase("prod", "resumed"), "Running");

  restart();
  // prod's own running work: resumed waits behind it, within prod's nominal.
  submit(workload_yaml("blocker", "prod", 8, 1, "high"), "prod");
  for (int i = 0; i < 3; ++i) plane_->loop().run_once();
  ASSERT_EQ(phase("prod", "blocker"), "Running");
  ASSERT_EQ(phase("prod", "resumed"), "Pending");

  ASSERT_TRUE(calls_->cancel_workload("prod", "resumed").ok());
  const uint64_t fresh = submit(workload_yaml("fresh", "prod", 8), "prod");
  for (int i = 0; i < 2; ++i) plane_->loop().run_once();
  // Turnovers are handed over on the action runner's thread, in order: once
  // fresh's is, any of resumed's would be too.
  const std::vector<uint64_t> handed = executor_.handed_over_once(fresh, std::chrono::seconds(10));
  EXPECT_EQ(std::count(handed.begin(), handed.end(), fresh), 1)
      << "the same place without a job to resume is handed over";
  EXPECT_EQ(std::count(handed.begin(), handed.end(), resumed), 0)
      << "its launch takes its job over";
}

TEST_F(ControlPlaneResumeTest, ARunWaitingToResumeItsBackendJobIsNotHandedOverAhead) {
  expect_a_run_to_resume_is_not_handed_over(/*job_stored=*/true);
}

TEST_F(ControlPlaneResumeTest, ARunWaitingToResumeWithoutAStoredJobIsNotHandedOverAheadEither) {
  expect_a_run_to_resume_is_not_handed_over(/*job_stored=*/false);
}

}  // namespace
}  // namespace allot::testing
