// The Slurm executor's ends told by the job and its sallocs that outlive their
// allocations (slurm_executor.h), with Slurm's commands scripted (no Slurm), a
// manual clock and real files and processes: an end file of the job's id
// reports the pods' exit before Slurm lists the job ended, nothing is reported
// twice, the job is never an orphan meanwhile, the workload may run again at
// once, and a job that still runs long after it told its end is cancelled; a
// salloc alive after its job ended is killed, one whose job runs is not.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/slurm/command_runner.h"
#include "backends/slurm/slurm_executor.h"
#include "base/clock.h"
#include "base/logger.h"
#include "base/mutex.h"

namespace allot::slurm {
namespace {

// Answers squeue with what the test set, the allocation launcher (sh) with
// `allocation`, sbatch with "8", everything else with success; records calls.
class EndsScriptedSlurm final : public CommandRunner {
 public:
  Result<CommandResult> run(const std::vector<std::string>& argv) override {
    MutexLock lock(mu_);
    calls_.push_back(argv);
    CommandResult result;
    if (argv.front() == "squeue") result.out = squeue_;
    if (argv.front() == "sbatch") result.out = "8\n";
    if (argv.front() == "sh") result.out = allocation_;
    return result;
  }
  Result<CommandResult> run_with_env(const std::vector<std::string>& argv,
                                     const std::vector<std::string>& /*extra_env*/) override {
    return run(argv);
  }
  void set_squeue(std::string text) {
    MutexLock lock(mu_);
    squeue_ = std::move(text);
  }
  void set_allocation(std::string text) {
    MutexLock lock(mu_);
    allocation_ = std::move(text);
  }
  int calls_of(const std::string& tool) const {
    MutexLock lock(mu_);
    int n = 0;
    for (const std::vector<std::string>& argv : calls_) n += argv.front() == tool ? 1 : 0;
    return n;
  }

 private:
  mutable Mutex mu_;
  std::string squeue_ ALLOT_GUARDED_BY(mu_);
  std::string allocation_ ALLOT_GUARDED_BY(mu_);
  std::vector<std::vector<std::string>> calls_ ALLOT_GUARDED_BY(mu_);
};

class EndsEvents final : public PodEventSink {
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

class SlurmEndsTest : public ::testing::Test {
 protected:
  void TearDown() override {
    executor_.reset();
    if (child_ > 0) {
      ::kill(child_, SIGKILL);
      ::waitpid(child_, nullptr, 0);
    }
    std::filesystem::remove_all(dir_);
  }
  void start_executor(SubmitMode mode) {
    std::filesystem::create_directories(dir_);
    SlurmExecutorOptions options;
    options.submit.log_dir = dir_;
    options.submit.job_prefix = "p-";
    options.submit.mode = mode;
    options.sink = &events_;
    options.poll_interval = Duration::seconds(3600);  // polls only when the test says
    options.end_file_interval = Duration::seconds(3600);
    options.logger = &logger_;
    executor_ = std::make_unique<SlurmExecutor>(slurm_, clock_, options);
    ASSERT_TRUE(executor_->start().ok());
  }
  static WorkloadLaunch launch_of(uint64_t id) {
    WorkloadLaunch launch;
    launch.workload = WorkloadId(id);
    launch.team = TeamId("vision");
    launch.command = {"true"};
    launch.pods.push_back({0, NodeId("node1"), {}, ResourceVector(1, 0, 0)});
    return launch;
  }
  void write_end(const std::string& text) const { std::ofstream(dir_ + "/5.end") << text; }
  // Waits (bounded) for the submitter threads to have submitted `n` jobs.
  bool submitted(int64_t n) const {
    for (int i = 0; i < 10000 && executor_->submitted() < n; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return executor_->submitted() >= n;
  }
  // A process standing for salloc: a child of this test, sleeping.
  pid_t spawn_salloc() {
    child_ = ::fork();
    if (child_ == 0) {
      ::execl("/bin/sleep", "sleep", "300", nullptr);
      ::_exit(127);
    }
    return child_;
  }
  // True when the child was killed by SIGKILL within `wait_ms`; false while it still runs.
  bool child_killed(int wait_ms = 2000) {
    int status = 0;
    for (int i = 0; i < wait_ms; ++i) {
      const pid_t done = ::waitpid(child_, &status, WNOHANG);
      if (done == child_) {
        child_ = 0;
        return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return false;
  }

  std::string dir_ = "/tmp/allot-slurm-ends-" + std::to_string(::getpid());
  EndsScriptedSlurm slurm_;
  ManualClock clock_;
  MemoryLogger logger_;
  EndsEvents events_;
  std::unique_ptr<SlurmExecutor> executor_;
  pid_t child_ = 0;
};

TEST_F(SlurmEndsTest, AnEndFileReportsTheExitBeforeSlurmListsTheJobEndedAndNothingTwice) {
  slurm_.set_squeue("7|p-5|RUNNING|None|node1|0\n");
  start_executor(SubmitMode::kBatch);
  executor_->launch(launch_of(5));  // adopts job 7
  executor_->poll_once();
  ASSERT_EQ(events_.events().size(), 1U);
  EXPECT_EQ(events_.events()[0].phase, PodPhase::kRunning);

  write_end("7 3\n");
  executor_->check_end_files();
  ASSERT_EQ(events_.events().size(), 2U);
  EXPECT_EQ(events_.events()[1].phase, PodPhase::kExited);
  EXPECT_EQ(events_.events()[1].exit_code, 3);

  executor_->poll_once();  // Slurm still completes it
  executor_->check_end_files();
  slurm_.set_squeue("7|p-5|COMPLETED|None|node1|768\n");
  executor_->poll_once();
  EXPECT_EQ(events_.events().size(), 2U) << "its end was reported once";
  EXPECT_EQ(slurm_.calls_of("scancel"), 0) << "never taken for an orphan";
}

TEST_F(SlurmEndsTest, AnEndFileOfAnotherJobOrNotYetWrittenReportsNothing) {
  slurm_.set_squeue("7|p-5|RUNNING|None|node1|0\n");
  start_executor(SubmitMode::kBatch);
  executor_->launch(launch_of(5));
  executor_->poll_once();

  write_end("6 0\n");  // an earlier run's job
  executor_->check_end_files();
  write_end("7 0");  // being written: no newline yet
  executor_->check_end_files();
  EXPECT_EQ(events_.events().size(), 1U) << "running only";
}

TEST_F(SlurmEndsTest, AWorkloadWhoseJobToldItsEndRunsAgainAsANewJob) {
  slurm_.set_squeue("7|p-5|RUNNING|None|node1|0\n");
  start_executor(SubmitMode::kBatch);
  executor_->launch(launch_of(5));
  executor_->poll_once();
  write_end("7 1\n");
  executor_->check_end_files();

  executor_->launch(launch_of(5));  // its retry, while Slurm still completes job 7
  ASSERT_TRUE(submitted(1));
  EXPECT_EQ(slurm_.calls_of("sbatch"), 1);
  std::ifstream end(dir_ + "/5.end");
  std::string text;
  std::getline(end, text);
  EXPECT_EQ(text, "") << "emptied before the new job";
}

TEST_F(SlurmEndsTest, AJobStillRunningLongAfterItToldItsEndIsCancelled) {
  slurm_.set_squeue("7|p-5|RUNNING|None|node1|0\n");
  start_executor(SubmitMode::kBatch);
  executor_->launch(launch_of(5));
  executor_->poll_once();
  write_end("7 0\n");
  executor_->check_end_files();
  executor_->poll_once();
  clock_.advance(Duration::seconds(9));
  executor_->poll_once();
  EXPECT_EQ(slurm_.calls_of("scancel"), 0) << "within end_hold";

  clock_.advance(Duration::seconds(2));
  executor_->poll_once();
  EXPECT_GE(slurm_.calls_of("scancel"), 1);
  const std::vector<LogEntry> entries = logger_.entries();
  EXPECT_TRUE(std::any_of(entries.begin(), entries.end(), [](const LogEntry& e) {
    return e.message == "a Slurm job still runs after it told allot it ended; cancelled";
  }));
}

TEST_F(SlurmEndsTest, ASallocAliveAfterItsJobEndedIsKilledAndOneWhoseJobRunsIsNot) {
  start_executor(SubmitMode::kAllocation);
  slurm_.set_allocation("7 " + std::to_string(spawn_salloc()) + "\n");
  executor_->launch(launch_of(5));
  ASSERT_TRUE(submitted(1));
  slurm_.set_squeue("7|p-5|RUNNING|None|node1|0\n");
  executor_->poll_once();
  clock_.advance(Duration::seconds(60));
  executor_->poll_once();
  EXPECT_FALSE(child_killed(200)) << "its job runs";

  slurm_.set_squeue("7|p-5|CANCELLED|None|node1|0\n");  // a cancel; salloc spins on
  executor_->poll_once();
  clock_.advance(Duration::seconds(9));
  executor_->poll_once();
  EXPECT_FALSE(child_killed(200)) << "within salloc_grace";
  clock_.advance(Duration::seconds(2));
  executor_->poll_once();
  EXPECT_TRUE(child_killed());
}

}  // namespace
}  // namespace allot::slurm
