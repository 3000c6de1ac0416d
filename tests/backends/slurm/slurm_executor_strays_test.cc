// The Slurm executor's handling of jobs it did not expect, with Slurm's
// commands scripted (no Slurm): a job of allot's found at start that no
// launch claims within the adoption window, and an unknown job with allot's
// name prefix, are cancelled and logged; a job Slurm requeued after it ran is
// cancelled and its pods reported lost (allot requeues the workload).
#include <algorithm>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "backends/slurm/command_runner.h"
#include "backends/slurm/slurm_executor.h"
#include "base/clock.h"
#include "base/logger.h"
#include "base/mutex.h"

namespace allot::slurm {
namespace {

// Answers squeue, sbatch and sacct with what the test set, everything else
// with success. `during_next_squeue` runs once, while the next squeue is
// under way (its answer already set).
class ScriptedSlurm final : public CommandRunner {
 public:
  Result<CommandResult> run(const std::vector<std::string>& argv) override {
    std::function<void()> during;
    CommandResult result;
    {
      MutexLock lock(mu_);
      calls_.push_back(argv);
      if (argv.front() == "squeue") {
        result.out = squeue_;
        during.swap(during_next_squeue_);
      }
      if (argv.front() == "sbatch") result.out = sbatch_;
      if (argv.front() == "sacct") result.out = sacct_;
    }
    if (during) during();
    return result;
  }
  void set_squeue(std::string text) {
    MutexLock lock(mu_);
    squeue_ = std::move(text);
  }
  void set_sbatch(std::string text) {
    MutexLock lock(mu_);
    sbatch_ = std::move(text);
  }
  void set_sacct(std::string text) {
    MutexLock lock(mu_);
    sacct_ = std::move(text);
  }
  void during_next_squeue(std::function<void()> action) {
    MutexLock lock(mu_);
    during_next_squeue_ = std::move(action);
  }
  int64_t cancels_of(const std::string& id) const {
    MutexLock lock(mu_);
    return std::count_if(calls_.begin(), calls_.end(), [&](const std::vector<std::string>& argv) {
      return argv.front() == "scancel" && argv.back() == id;
    });
  }
  int64_t calls_of(const std::string& command) const {
    MutexLock lock(mu_);
    return std::count_if(calls_.begin(), calls_.end(), [&](const std::vector<std::string>& argv) {
      return argv.front() == command;
    });
  }
  bool cancelled(const std::string& id) const {
    MutexLock lock(mu_);
    return std::any_of(calls_.begin(), calls_.end(), [&](const std::vector<std::string>& argv) {
      return argv.front() == "scancel" && argv.back() == id;
    });
  }

 private:
  mutable Mutex mu_;
  std::string squeue_ ALLOT_GUARDED_BY(mu_);
  std::string sbatch_ ALLOT_GUARDED_BY(mu_);
  std::string sacct_ ALLOT_GUARDED_BY(mu_);
  std::function<void()> during_next_squeue_ ALLOT_GUARDED_BY(mu_);
  std::vector<std::vector<std::string>> calls_ ALLOT_GUARDED_BY(mu_);
};

class StrayEvents final : public PodEventSink {
 public:
  void on_pod_event(const PodEvent& event) override {
    MutexLock lock(mu_);
    events_.push_back(event);
  }
  std::vector<PodEvent> events() const {
    MutexLock lock(mu_);
    return events_;
  }

 private:
  mutable Mutex mu_;
  std::vector<PodEvent> events_ ALLOT_GUARDED_BY(mu_);
};

class SlurmStrayJobsTest : public ::testing::Test {
 protected:
  void start_executor() {
    SlurmExecutorOptions options;
    options.submit.log_dir = "/tmp/allot-slurm-strays-" + std::to_string(::getpid());
    options.submit.job_prefix = "p-";
    options.sink = &events_;
    options.poll_interval = Duration::seconds(3600);  // polls only when the test says
    options.adopt_within = Duration::seconds(60);
    options.logger = &logger_;
    executor_ = std::make_unique<SlurmExecutor>(slurm_, clock_, options);
    ASSERT_TRUE(executor_->start().ok());
  }
  bool logged(const std::string& message) const {
    const std::vector<LogEntry> entries = logger_.entries();
    return std::any_of(entries.begin(), entries.end(),
                       [&](const LogEntry& e) { return e.message == message; });
  }
  // Workload 5 runs as Slurm job 7 on node1 (adopted at its launch), seen
  // running by one poll: the job that handovers follow.
  void start_with_workload_5_running() {
    slurm_.set_squeue("7|p-5|RUNNING|None|node1|0\n");
    start_executor();
    executor_->launch(launch_of(5));
    executor_->poll_once();
  }
  static WorkloadLaunch launch_of(uint64_t id) {
    WorkloadLaunch launch;
    launch.workload = WorkloadId(id);
    launch.team = TeamId("vision");
    launch.command = {"true"};
    launch.pods.push_back({0, NodeId("node1"), {}, ResourceVector(1, 0, 0)});
    return launch;
  }
  // A gang of two pods, on node1 and node2 (Slurm's "node[1-2]").
  static WorkloadLaunch gang_launch_of(uint64_t id) {
    WorkloadLaunch launch = launch_of(id);
    launch.pods.push_back({1, NodeId("node2"), {}, ResourceVector(1, 0, 0)});
    return launch;
  }

  ScriptedSlurm slurm_;
  ManualClock clock_;
  MemoryLogger logger_;
  StrayEvents events_;
  std::unique_ptr<SlurmExecutor> executor_;
};

TEST_F(SlurmStrayJobsTest, AJobFoundAtStartThatNoLaunchClaimsIsCancelledAfterTheWindow) {
  slurm_.set_squeue("7|p-5|RUNNING|None|node1|0\n8|site-job|RUNNING|None|node1|0\n");
  start_executor();

  executor_->poll_once();
  EXPECT_FALSE(slurm_.cancelled("7")) << "within the window its workload may still come";

  clock_.advance(Duration::seconds(61));
  executor_->poll_once();
  EXPECT_TRUE(slurm_.cancelled("7"));
  EXPECT_FALSE(slurm_.cancelled("8")) << "not allot's";
  EXPECT_TRUE(logged("cancelling an orphaned Slurm job"));
}

TEST_F(SlurmStrayJobsTest, AnUnknownJobWithAllotsPrefixIsCancelledAtOnce) {
  start_executor();
  slurm_.set_squeue("9|p-6|PENDING|Priority||0\n");

  executor_->poll_once();

  EXPECT_TRUE(slurm_.cancelled("9"));
  EXPECT_TRUE(logged("cancelling an orphaned Slurm job"));
}

TEST_F(SlurmStrayJobsTest, AJobSlurmRequeuedAfterItRanIsCancelledAndItsPodReportedLost) {
  slurm_.set_squeue("7|p-5|RUNNING|None|node1|0\n");
  start_executor();
  executor_->launch(launch_of(5));  // adopted
  executor_->poll_once();
  ASSERT_EQ(events_.events().size(), 1u);
  EXPECT_EQ(events_.events()[0].phase, PodPhase::kRunning);

  slurm_.set_squeue("7|p-5|PENDING|BeginTime||0\n");
  executor_->poll_once();

  ASSERT_EQ(events_.events().size(), 2u);
  const PodEvent lost = events_.events()[1];
  EXPECT_EQ(lost.phase, PodPhase::kExited);
  EXPECT_TRUE(lost.lost);
  EXPECT_FALSE(lost.stopped);
  EXPECT_TRUE(slurm_.cancelled("7"));
  // The view is Slurm's last word on the job (kept once it ended, views).
  ASSERT_TRUE(executor_->slurm_view(WorkloadId(5)).has_value());
  EXPECT_EQ(executor_->slurm_view(WorkloadId(5))->state, "PENDING");
}

// A job handed over (executor.h's hand_over()) while a poll's squeue was
// under way is missing from that listing: it is neither forgotten nor taken
// for an orphan at the next poll. Slurm runs it when the job it follows
// ends, before allot launches its workload; it ends and leaves Slurm's
// listing. The launch still takes it over (no second sbatch: the workload
// runs once) and reports its run from sacct.
TEST_F(SlurmStrayJobsTest, AHandedOverJobMissingFromAListingUnderWayIsKeptUntilItsLaunch) {
  start_with_workload_5_running();
  ASSERT_EQ(events_.events().size(), 1u);

  slurm_.set_sbatch("8\n");
  bool handed = false;
  slurm_.during_next_squeue([&] { handed = executor_->hand_over(launch_of(6), {WorkloadId(5)}); });
  executor_->poll_once();
  ASSERT_TRUE(handed);

  slurm_.set_squeue("7|p-5|RUNNING|None|node1|0\n8|p-6|PENDING|Dependency||0\n");
  executor_->poll_once();
  EXPECT_FALSE(slurm_.cancelled("8")) << "handed over, not an orphan";

  slurm_.set_squeue("7|p-5|COMPLETED|None|node1|0\n8|p-6|RUNNING|None|node1|0\n");
  executor_->poll_once();
  slurm_.set_squeue("8|p-6|COMPLETED|None|node1|0\n");
  executor_->poll_once();
  slurm_.set_squeue("");  // purged (MinJobAge)
  executor_->poll_once();
  ASSERT_EQ(events_.events().size(), 2u) << "5 ran and ended; nothing of 6 before its launch";

  slurm_.set_sacct("8|COMPLETED|0:0\n");
  executor_->launch(launch_of(6));
  executor_->poll_once();

  EXPECT_EQ(slurm_.calls_of("sbatch"), 1) << "the handover's only";
  EXPECT_FALSE(slurm_.cancelled("8"));
  const std::vector<PodEvent> events = events_.events();
  ASSERT_EQ(events.size(), 4u) << "6 ran, then ended";
  EXPECT_EQ(events[2].pod.workload, WorkloadId(6));
  EXPECT_EQ(events[2].phase, PodPhase::kRunning);
  EXPECT_EQ(events[3].pod.workload, WorkloadId(6));
  EXPECT_EQ(events[3].phase, PodPhase::kExited);
  EXPECT_TRUE(events[3].succeeded());
}

// A handed-over job that ran and left Slurm's listing between two polls (no
// listing saw it end) is asked of sacct: ended on its own, it stays for its
// launch, which reports its run; found nowhere for `lost_after` polls, it is
// forgotten and the launch submits afresh.
TEST_F(SlurmStrayJobsTest, AHandedOverJobGoneFromTheListingIsJudgedBySacct) {
  start_with_workload_5_running();
  slurm_.set_sbatch("8\n");
  ASSERT_TRUE(executor_->hand_over(launch_of(6), {WorkloadId(5)}));
  slurm_.set_sbatch("9\n");
  ASSERT_TRUE(executor_->hand_over(launch_of(16), {WorkloadId(5)}));
  slurm_.set_squeue(
      "7|p-5|RUNNING|None|node1|0\n8|p-6|PENDING|Dependency||0\n9|p-16|PENDING|Dependency||0\n");
  executor_->poll_once();

  slurm_.set_squeue("7|p-5|COMPLETED|None|node1|0\n");  // 8 ran and was purged; 9 is lost
  slurm_.set_sacct("8|COMPLETED|0:0\n");
  for (int i = 0; i < 10; ++i) executor_->poll_once();  // lost_after
  executor_->launch(launch_of(6));
  executor_->launch(launch_of(16));
  executor_->poll_once();

  // 16's sbatch runs on a submitter thread: waited for (5 s at most).
  for (int i = 0; i < 500 && slurm_.calls_of("sbatch") < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(slurm_.calls_of("sbatch"), 3) << "the two handovers, then 16 afresh; 6 not again";
  std::vector<PodEvent> of_6;
  for (const PodEvent& event : events_.events()) {
    if (event.pod.workload == WorkloadId(6)) of_6.push_back(event);
  }
  ASSERT_EQ(of_6.size(), 2u) << "6 ran, then ended";
  EXPECT_EQ(of_6[1].phase, PodPhase::kExited);
  EXPECT_TRUE(of_6[1].succeeded());
}

// A handed-over job that allot withdraws is cancelled once: while Slurm
// still lists it running (it had started it at its predecessor's end), the
// poll does not take it for an orphan. Once a listing showed it ended it is
// forgotten: a job of that id listed afterwards is an orphan as any other.
TEST_F(SlurmStrayJobsTest, AWithdrawnHandoverIsCancelledOnceAndNotTakenForAnOrphan) {
  start_with_workload_5_running();
  slurm_.set_sbatch("8\n");
  ASSERT_TRUE(executor_->hand_over(launch_of(6), {WorkloadId(5)}));

  executor_->withdraw(WorkloadId(6));
  slurm_.set_squeue("7|p-5|COMPLETED|None|node1|0\n8|p-6|RUNNING|None|node1|0\n");
  executor_->poll_once();
  executor_->poll_once();

  EXPECT_EQ(slurm_.cancels_of("8"), 1);
  EXPECT_FALSE(logged("cancelling an orphaned Slurm job"));

  slurm_.set_squeue("8|p-6|CANCELLED|None|node1|0\n");
  executor_->poll_once();
  slurm_.set_squeue("8|p-6|RUNNING|None|node1|0\n");
  executor_->poll_once();
  EXPECT_EQ(slurm_.cancels_of("8"), 2);
  EXPECT_TRUE(logged("cancelling an orphaned Slurm job"));
}

// The views (allot describe, status.backend): what the last poll (one squeue
// for every job) said of the workload's job; an ended job's last view stays.
TEST_F(SlurmStrayJobsTest, TheBackendJobIsTheLastPollsViewAndOutlivesTheJob) {
  slurm_.set_squeue("7|p-5|PENDING|Resources||0\n");
  start_executor();
  executor_->launch(gang_launch_of(5));  // adopted
  executor_->poll_once();
  EXPECT_EQ(executor_->backend_job(WorkloadId(5)),
            (BackendJob{"slurm", "7", "PENDING", "Resources", "", ""}));

  slurm_.set_squeue("7|p-5|RUNNING|None|node[1-2]|0\n");
  executor_->poll_once();
  EXPECT_EQ(executor_->backend_job(WorkloadId(5)),
            (BackendJob{"slurm", "7", "RUNNING", "None", "node[1-2]", ""}));

  slurm_.set_squeue("7|p-5|COMPLETED|None|node[1-2]|0\n");
  executor_->poll_once();
  EXPECT_EQ(executor_->backend_job(WorkloadId(5)),
            (BackendJob{"slurm", "7", "COMPLETED", "None", "node[1-2]", ""}))
      << "the job ended: its last view stays";
  EXPECT_FALSE(executor_->backend_job(WorkloadId(6)).has_value()) << "no job of its own";
}

// Slurm's NodeList checked against allot's placement when the job runs: a
// difference is kept (not cancelled, not lost), logged, and the view names
// allot's placement beside Slurm's nodes, also once the job ended.
TEST_F(SlurmStrayJobsTest, AJobSlurmRunsOnOtherNodesIsKeptLoggedAndItsViewNamesAllotsPlacement) {
  slurm_.set_squeue("7|p-5|PENDING|Resources||0\n");
  start_executor();
  executor_->launch(launch_of(5));  // adopted; allot placed it on node1
  executor_->poll_once();
  EXPECT_FALSE(logged("Slurm runs a job on other nodes than allot placed it on")) << "pending";

  slurm_.set_squeue("7|p-5|RUNNING|None|node3|0\n");
  executor_->poll_once();

  ASSERT_EQ(events_.events().size(), 1u);
  EXPECT_EQ(events_.events()[0].phase, PodPhase::kRunning) << "accepted where it runs";
  EXPECT_FALSE(slurm_.cancelled("7"));
  EXPECT_TRUE(logged("Slurm runs a job on other nodes than allot placed it on"));
  EXPECT_EQ(executor_->backend_job(WorkloadId(5)),
            (BackendJob{"slurm", "7", "RUNNING", "None", "node3", "node1"}));

  slurm_.set_squeue("7|p-5|COMPLETED|None|node3|0\n");
  executor_->poll_once();
  ASSERT_EQ(events_.events().size(), 2u);
  EXPECT_TRUE(events_.events()[1].succeeded());
  EXPECT_EQ(executor_->backend_job(WorkloadId(5)),
            (BackendJob{"slurm", "7", "COMPLETED", "None", "node3", "node1"}));
}

TEST_F(SlurmStrayJobsTest, AJobThatRanAndEndedBetweenTwoPollsIsCheckedToo) {
  slurm_.set_squeue("7|p-5|PENDING|Resources||0\n");
  start_executor();
  executor_->launch(gang_launch_of(5));  // node1 and node2
  executor_->poll_once();

  slurm_.set_squeue("7|p-5|COMPLETED|None|node[2-3]|0\n");
  executor_->poll_once();
  EXPECT_TRUE(logged("Slurm runs a job on other nodes than allot placed it on"));
  EXPECT_EQ(executor_->backend_job(WorkloadId(5))->placed_nodes, "node1,node2");
}

}  // namespace
}  // namespace allot::slurm
