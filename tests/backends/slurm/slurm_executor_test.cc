// The Slurm executor against a real Slurm 22.05 (the ctest fixture `slurm`:
// four emulated nodes, h100 on node1-2, a100 on node3-4): a new executor
// takes over the job of an earlier one that ended (named by the resuming
// launch, or found by its name when its id was never stored); a job Slurm
// runs elsewhere is kept; a job's start and a stopped job's end are seen at
// the fast poll cadence. The scenarios both transports share (a GPU job, a
// gang, a stop, a refusal, adoption of a live job) are in
// slurm_library_executor_test.cc, run through the commands and libslurm.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "backends/slurm/command_runner.h"
#include "backends/slurm/slurm_policy_sync.h"
#include "base/clock.h"
#include "base/mutex.h"
#include "slurm_executor_fixture.h"

namespace allot::slurm {
namespace {

// The job ended while no executor watched it (allotd was down): the launch
// that resumes the interrupted run names it (resume_job), and the new
// executor takes it over, reporting its end as the run's, instead of
// submitting the run again.
TEST_F(SlurmExecutorTest, AJobThatEndedWhileNoExecutorWatchedIsTakenOverByTheResumingLaunch) {
  executor_ = make(events_);
  WorkloadLaunch l = launch(6, {"node1"}, "sleep 1; exit 3");
  executor_->launch(l);
  ASSERT_EQ(events_.wait_for(PodPhase::kRunning, 1).size(), 1u);
  const std::string job = executor_->slurm_view(l.workload)->job_id;
  executor_.reset();  // allotd went away; the job ends meanwhile
  const std::string recorded = job_state_once(job, "FAILED");
  ASSERT_NE(recorded.find("FAILED"), std::string::npos) << recorded;

  EventLog after;
  executor_ = make(after);
  WorkloadLaunch again = l;
  again.pods[0].node = NodeId("node2");  // wherever allot places it now
  again.resume_job = job;
  executor_->launch(again);

  const std::vector<PodEvent> exits = after.wait_for(PodPhase::kExited, 1);
  ASSERT_EQ(exits.size(), 1u);
  EXPECT_EQ(exits[0].exit_code, 3) << "the job's own end";
  EXPECT_FALSE(exits[0].stopped);
  EXPECT_FALSE(exits[0].lost);
  EXPECT_EQ(executor_->adopted(), 1);
  EXPECT_EQ(executor_->submitted(), 0);
  EXPECT_EQ(executor_->slurm_view(l.workload)->job_id, job);
}

// allotd stopped between sbatch's answer and storing the job id: the launch
// that resumes the run knows only the run's admission (resume_since). The
// executor finds the run's job in sacct and takes it over, reporting its own
// end, instead of running the workload a second time; a job of the same
// name submitted before that admission (an earlier run's) is not taken.
TEST_F(SlurmExecutorTest, ARunWhoseJobIdWasNeverStoredIsFoundInSlurmNotSubmittedAgain) {
  const Timestamp admitted = clock_.now() - Duration::seconds(1);
  executor_ = make(events_);
  WorkloadLaunch l = launch(8, {"node2"}, "echo ran; exit 4");
  executor_->launch(l);
  ASSERT_EQ(events_.wait_for(PodPhase::kExited, 1).size(), 1u);
  const std::string job = executor_->slurm_view(l.workload)->job_id;
  executor_.reset();
  const std::string recorded = job_state_once(job, "FAILED");
  ASSERT_NE(recorded.find("FAILED"), std::string::npos) << recorded;

  EventLog after;
  executor_ = make(after);
  WorkloadLaunch resumed = l;
  resumed.resume_since = admitted;
  executor_->launch(resumed);

  const std::vector<PodEvent> exits = after.wait_for(PodPhase::kExited, 1);
  ASSERT_EQ(exits.size(), 1u);
  EXPECT_EQ(exits[0].exit_code, 4) << "the job's own end";
  EXPECT_EQ(executor_->adopted(), 1);
  EXPECT_EQ(executor_->submitted(), 0);
  EXPECT_EQ(executor_->slurm_view(l.workload)->job_id, job);
  EXPECT_EQ(log_of({l.workload, 0}), "ran\n") << "run once";

  EventLog later;
  executor_ = make(later);
  WorkloadLaunch next = l;
  next.resume_since = clock_.now() + Duration::seconds(1);  // after that job's submission
  executor_->launch(next);
  ASSERT_EQ(later.wait_for(PodPhase::kExited, 1).size(), 1u);
  EXPECT_EQ(executor_->submitted(), 1) << "an earlier run's job is not this run's";
  EXPECT_NE(executor_->slurm_view(l.workload)->job_id, job);
}

// Slurm's NodeList against allot's placement, for real: node1's GPUs are
// held by a job submitted around allot, so allot's job (placed on node1)
// waits; an admin moves it to node2 (`scontrol update ReqNodeList`), where
// Slurm runs it. The executor keeps it running (not cancelled, not lost) and
// its view names allot's placement beside Slurm's node.
TEST_F(SlurmExecutorTest, AJobSlurmRunsOnAnotherNodeIsKeptAndItsViewNamesAllotsPlacement) {
  const Result<CommandResult> blocker =
      runner_.run({"sbatch", "--parsable", "-A", "texec-vision", "-p", "gpu", "-w", "node1",
                   "--gres=gpu:h100:8", "--mem=100", "-o", "/dev/null", "--wrap", "sleep 120"});
  ASSERT_TRUE(blocker.ok() && blocker->succeeded()) << (blocker.ok() ? blocker->said() : "");
  executor_ = make(events_);
  const WorkloadLaunch l = launch(6, {"node1"}, "echo NODE=$SLURMD_NODENAME");
  executor_->launch(l);
  std::optional<SlurmJobView> view;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    view = executor_->slurm_view(l.workload);
    if (view && !view->job_id.empty() && view->state == "PENDING") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  ASSERT_TRUE(view && view->state == "PENDING") << "behind the job holding node1";

  ASSERT_TRUE(runner_.run({"scontrol", "update", "JobId=" + view->job_id, "ReqNodeList=node2"})
                  ->succeeded());
  const std::vector<PodEvent> exits = events_.wait_for(PodPhase::kExited, 1);

  ASSERT_EQ(exits.size(), 1u);
  EXPECT_TRUE(exits[0].succeeded()) << "kept where it ran";
  const std::string log = log_of({l.workload, 0});  // appended to across runs (--gtest_repeat)
  EXPECT_NE(log.find("NODE=node2"), std::string::npos) << log;
  EXPECT_EQ(log.find("NODE=node1"), std::string::npos) << log;
  EXPECT_EQ(executor_->slurm_view(l.workload)->nodes, "node2");
  EXPECT_EQ(executor_->slurm_view(l.workload)->placed_nodes, "node1");
}

// The poll cadence against the real Slurm: with a one-hour poll_interval, a
// job's start and a stopped victim's end are still seen within seconds (the
// fast cadence after a submission and after a stop), not at the next tick.
TEST_F(SlurmExecutorTest, ASubmittedJobsStartAndAStoppedJobsEndAreSeenAtTheFastCadence) {
  ManualClock clock;  // the fast window's time; the poll thread rests on real time
  SlurmExecutorOptions options;
  options.submit.log_dir = log_dir_;
  options.submit.partition = "gpu";
  options.submit.job_prefix = "texec-";
  options.sink = &events_;
  options.poll_interval = Duration::seconds(3600);
  options.fast_poll_interval = Duration::millis(100);
  options.fast_poll_for = Duration::seconds(5);
  executor_ = std::make_unique<SlurmExecutor>(runner_, clock, options);
  ASSERT_TRUE(executor_->start().ok());
  const WorkloadLaunch l = launch(7, {"node1"}, "sleep 300");

  const auto launched = std::chrono::steady_clock::now();
  executor_->launch(l);
  ASSERT_EQ(events_.wait_for(PodPhase::kRunning, 1).size(), 1u);
  EXPECT_LT(std::chrono::steady_clock::now() - launched, std::chrono::seconds(20));

  clock.advance(Duration::seconds(6));  // the window after the start has passed
  EXPECT_EQ(executor_->poll_delay(), Duration::seconds(3600));
  const auto stopped = std::chrono::steady_clock::now();
  executor_->stop(l.workload, Duration());
  const std::vector<PodEvent> exits = events_.wait_for(PodPhase::kExited, 1);

  ASSERT_EQ(exits.size(), 1u);
  EXPECT_TRUE(exits[0].stopped);
  EXPECT_LT(std::chrono::steady_clock::now() - stopped, std::chrono::seconds(20))
      << "seen at the fast cadence, not after the hour's poll_interval";
}

}  // namespace
}  // namespace allot::slurm
