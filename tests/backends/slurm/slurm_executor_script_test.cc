// The batch script that the Slurm executor hands sbatch holds the workload's
// env (which may hold secrets), with Slurm's commands scripted (no Slurm):
// it is readable by its owner alone from the moment it exists (0600) and is
// gone once sbatch has sent it; an allocation, and a transport that sends the
// script's text (libslurm, slurmrestd), write no script file at all.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backends/slurm/command_runner.h"
#include "backends/slurm/slurm_executor.h"
#include "backends/slurm/slurm_transport.h"
#include "base/clock.h"
#include "base/mutex.h"

namespace allot::slurm {
namespace {

// Answers sbatch with a job id, noting what the script file was when sbatch
// read it; squeue with nothing; salloc's launcher with a job id and the
// environment it was given.
class ScriptReadingSlurm final : public CommandRunner {
 public:
  Result<CommandResult> run(const std::vector<std::string>& argv) override {
    return run_with_env(argv, {});
  }
  Result<CommandResult> run_with_env(const std::vector<std::string>& argv,
                                     const std::vector<std::string>& extra_env) override {
    MutexLock lock(mu_);
    CommandResult result;
    if (argv.front() == "sbatch") {
      struct stat st {};
      script_mode_ =
          ::stat(argv.back().c_str(), &st) == 0 ? static_cast<int>(st.st_mode & 0777) : -1;
      std::ifstream in(argv.back());
      std::stringstream text;
      text << in.rdbuf();
      script_text_ = text.str();
      result.out = "17\n";
    } else if (argv.front() == "sh") {  // the allocation's launcher
      extra_env_ = extra_env;
      result.out = "18\n";
    }
    return result;
  }
  int script_mode() const {
    MutexLock lock(mu_);
    return script_mode_;
  }
  std::string script_text() const {
    MutexLock lock(mu_);
    return script_text_;
  }
  std::vector<std::string> extra_env() const {
    MutexLock lock(mu_);
    return extra_env_;
  }

 private:
  mutable Mutex mu_;
  int script_mode_ ALLOT_GUARDED_BY(mu_) = -2;  // -2: sbatch never ran
  std::string script_text_ ALLOT_GUARDED_BY(mu_);
  std::vector<std::string> extra_env_ ALLOT_GUARDED_BY(mu_);
};

// A transport whose request carries the script's text (libslurm, slurmrestd):
// notes whether a script file existed while it submitted.
class TextTransport final : public SlurmTransport {
 public:
  explicit TextTransport(std::string script_path) : script_path_(std::move(script_path)) {}
  [[nodiscard]] std::string name() const override { return "text"; }
  Result<std::string> submit(const Submission& submission,
                             const std::optional<JobOwner>& /*owner*/) override {
    MutexLock lock(mu_);
    file_existed_ = std::filesystem::exists(script_path_);
    script_text_ = submission.script;
    return std::string("19");
  }
  Status cancel(const std::string& /*job_id*/, CancelKind /*kind*/) override {
    return Status::ok_status();
  }
  Result<std::vector<SlurmJob>> list_jobs() override { return std::vector<SlurmJob>{}; }
  bool file_existed() const {
    MutexLock lock(mu_);
    return file_existed_;
  }
  std::string script_text() const {
    MutexLock lock(mu_);
    return script_text_;
  }

 private:
  const std::string script_path_;
  mutable Mutex mu_;
  bool file_existed_ ALLOT_GUARDED_BY(mu_) = true;
  std::string script_text_ ALLOT_GUARDED_BY(mu_);
};

class NoEvents final : public PodEventSink {
 public:
  void on_pod_event(const PodEvent& /*event*/) override {}
};

class SlurmScriptFileTest : public ::testing::Test {
 protected:
  void TearDown() override {
    executor_.reset();
    std::filesystem::remove_all(log_dir_);
  }
  void start_executor(SubmitMode mode, std::shared_ptr<SlurmTransport> transport = nullptr) {
    SlurmExecutorOptions options;
    options.submit.log_dir = log_dir_;
    options.submit.mode = mode;
    options.sink = &events_;
    options.poll_interval = Duration::seconds(3600);
    executor_ = std::make_unique<SlurmExecutor>(slurm_, clock_, options);
    executor_->set_transport(std::move(transport));
    ASSERT_TRUE(executor_->start().ok());
  }
  static WorkloadLaunch secret_launch() {
    WorkloadLaunch launch;
    launch.workload = WorkloadId(5);
    launch.team = TeamId("vision");
    launch.command = {"true"};
    launch.env = {{"API_TOKEN", "tok-77e1"}};
    launch.pods.push_back({0, NodeId("node1"), {}, ResourceVector(1, 0, 0)});
    return launch;
  }
  // Waits (up to 20 s) until the executor has submitted the launch.
  bool submitted() const {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (executor_->submitted() < 1 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return executor_->submitted() >= 1;
  }

  std::string log_dir_ = "/tmp/allot-slurm-script-test-" + std::to_string(::getpid());
  ScriptReadingSlurm slurm_;
  ManualClock clock_;
  NoEvents events_;
  std::unique_ptr<SlurmExecutor> executor_;
};

TEST_F(SlurmScriptFileTest, TheBatchScriptIsTheOwnersAloneWhileSbatchReadsItAndGoneAfter) {
  start_executor(SubmitMode::kBatch);

  executor_->launch(secret_launch());

  ASSERT_TRUE(submitted());
  EXPECT_EQ(slurm_.script_mode(), 0600) << "no other local user may read the workload's env";
  EXPECT_NE(slurm_.script_text().find("export API_TOKEN='tok-77e1'"), std::string::npos)
      << slurm_.script_text();
  EXPECT_FALSE(std::filesystem::exists(log_dir_ + "/5.sbatch")) << "removed once sbatch sent it";
}

TEST_F(SlurmScriptFileTest, ATransportThatCarriesTheScriptsTextGetsNoFile) {
  auto text = std::make_shared<TextTransport>(log_dir_ + "/5.sbatch");
  start_executor(SubmitMode::kBatch, text);

  executor_->launch(secret_launch());

  ASSERT_TRUE(submitted());
  EXPECT_FALSE(text->file_existed()) << "libslurm and slurmrestd send the text itself";
  EXPECT_NE(text->script_text().find("export API_TOKEN='tok-77e1'"), std::string::npos);
  EXPECT_EQ(slurm_.script_mode(), -2) << "no sbatch";
}

TEST_F(SlurmScriptFileTest, AnAllocationsScriptTravelsInTheEnvironmentAndNoFileHoldsIt) {
  start_executor(SubmitMode::kAllocation);

  executor_->launch(secret_launch());

  ASSERT_TRUE(submitted());
  const std::vector<std::string> env = slurm_.extra_env();
  ASSERT_EQ(env.size(), 1U);
  EXPECT_NE(env[0].find("export API_TOKEN='tok-77e1'"), std::string::npos) << env[0];
  EXPECT_FALSE(std::filesystem::exists(log_dir_ + "/5.sbatch"));
  EXPECT_EQ(slurm_.script_mode(), -2) << "no sbatch";
}

}  // namespace
}  // namespace allot::slurm
