// The Slurm executor's poll cadence (slurm_executor.h), with Slurm's commands
// scripted (no Slurm) and a manual clock: poll_interval while nothing happens;
// fast_poll_interval for fast_poll_for after a job is seen starting or ending
// or a stop is sent; never faster when the fast cadence is off.
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "backends/slurm/command_runner.h"
#include "backends/slurm/slurm_executor.h"
#include "base/clock.h"
#include "base/mutex.h"

namespace allot::slurm {
namespace {

// Answers squeue with what the test set, everything else with success.
class ScriptedSqueue final : public CommandRunner {
 public:
  Result<CommandResult> run(const std::vector<std::string>& argv) override {
    MutexLock lock(mu_);
    CommandResult result;
    if (argv.front() == "squeue") result.out = squeue_;
    return result;
  }
  void set_squeue(std::string text) {
    MutexLock lock(mu_);
    squeue_ = std::move(text);
  }

 private:
  Mutex mu_;
  std::string squeue_ ALLOT_GUARDED_BY(mu_);
};

class SlurmPollCadenceTest : public ::testing::Test {
 protected:
  // The thread's own polls never come during a test: both cadences are long.
  void start_executor(Duration fast) {
    SlurmExecutorOptions options;
    options.submit.log_dir = "/tmp/allot-slurm-cadence-" + std::to_string(::getpid());
    options.submit.job_prefix = "p-";
    options.poll_interval = Duration::seconds(7200);
    options.fast_poll_interval = fast;
    options.fast_poll_for = Duration::seconds(2);
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

  ScriptedSqueue slurm_;
  ManualClock clock_;
  std::unique_ptr<SlurmExecutor> executor_;
};

TEST_F(SlurmPollCadenceTest, AJobSeenStartingOrEndingPollsFastForAWhileThenAtTheInterval) {
  slurm_.set_squeue("7|p-5|PENDING|Priority||0\n");
  start_executor(Duration::seconds(3600));
  executor_->launch(launch_of(5));  // adopts job 7
  executor_->poll_once();
  EXPECT_EQ(executor_->poll_delay(), Duration::seconds(7200)) << "nothing turned over yet";

  slurm_.set_squeue("7|p-5|RUNNING|None|node1|0\n");
  executor_->poll_once();
  EXPECT_EQ(executor_->poll_delay(), Duration::seconds(3600)) << "seen starting";
  clock_.advance(Duration::millis(2001));
  EXPECT_EQ(executor_->poll_delay(), Duration::seconds(7200)) << "fast_poll_for passed";
  executor_->poll_once();
  EXPECT_EQ(executor_->poll_delay(), Duration::seconds(7200)) << "still running: nothing new";

  slurm_.set_squeue("7|p-5|COMPLETED|None|node1|0\n");
  executor_->poll_once();
  EXPECT_EQ(executor_->poll_delay(), Duration::seconds(3600)) << "seen ending";
}

TEST_F(SlurmPollCadenceTest, AStopPollsFastUntilTheVictimsEndIsSeen) {
  slurm_.set_squeue("7|p-5|RUNNING|None|node1|0\n");
  start_executor(Duration::seconds(3600));
  executor_->launch(launch_of(5));
  executor_->poll_once();
  clock_.advance(Duration::seconds(3));
  ASSERT_EQ(executor_->poll_delay(), Duration::seconds(7200));

  executor_->stop(WorkloadId(5), Duration());
  EXPECT_EQ(executor_->poll_delay(), Duration::seconds(3600)) << "a reclaim waits on its end";
}

TEST_F(SlurmPollCadenceTest, WithoutAFastCadenceEveryPollWaitsTheInterval) {
  slurm_.set_squeue("7|p-5|RUNNING|None|node1|0\n");
  start_executor(Duration());
  executor_->launch(launch_of(5));
  executor_->poll_once();
  EXPECT_EQ(executor_->poll_delay(), Duration::seconds(7200));
  executor_->stop(WorkloadId(5), Duration());
  EXPECT_EQ(executor_->poll_delay(), Duration::seconds(7200));
}

}  // namespace
}  // namespace allot::slurm
