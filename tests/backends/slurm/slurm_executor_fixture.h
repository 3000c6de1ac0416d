// The Slurm executor's tests against a real Slurm 22.05 (the ctest fixture
// `slurm`: four emulated nodes, h100 on node1-2, a100 on node3-4, slurmrestd
// on): the account `texec-vision` carried into Slurm, an executor made with
// the commands or another transport, the pods' events and logs.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "backends/slurm/command_runner.h"
#include "backends/slurm/rest_transport.h"
#include "backends/slurm/slurm_executor.h"
#include "backends/slurm/slurm_policy_sync.h"
#include "backends/slurm/slurm_transport.h"
#include "base/clock.h"
#include "base/mutex.h"

namespace allot::slurm {

inline std::string executor_slurm_conf() {
  const char* conf = std::getenv("ALLOT_TEST_SLURM_CONF");
  return conf == nullptr ? std::string() : conf;
}

class EventLog final : public PodEventSink {
 public:
  void on_pod_event(const PodEvent& event) override {
    MutexLock lock(mu_);
    events_.push_back(event);
    cv_.notify_all();
  }
  // Waits up to 60 s for `count` events of `phase`; returns them.
  std::vector<PodEvent> wait_for(PodPhase phase, size_t count) {
    MutexLock lock(mu_);
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    for (;;) {
      std::vector<PodEvent> out;
      for (const PodEvent& e : events_) {
        if (e.phase == phase) out.push_back(e);
      }
      if (out.size() >= count || !cv_.wait_until(mu_, deadline)) return out;
    }
  }

 private:
  Mutex mu_;
  CondVar cv_;
  std::vector<PodEvent> events_ ALLOT_GUARDED_BY(mu_);
};

class SlurmExecutorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(executor_slurm_conf().empty())
        << "run under ctest: the `slurm` fixture sets ALLOT_TEST_SLURM_CONF";
    std::filesystem::create_directories(log_dir_);
    BackendPolicy policy;
    policy.root = "texec";
    policy.flavors = {"a100", "h100"};
    SyncedTeam team;
    team.team = TeamId("texec-vision");
    team.ceiling = {{"h100", Resource::kGpu, 16}, {"a100", Resource::kGpu, 16}};
    team.users = {"root"};
    policy.teams = {team};
    ASSERT_TRUE(sync_.apply(policy).ok());
  }
  void TearDown() override {
    executor_.reset();
    (void)runner_.run({"scancel", "--account=texec-vision"});
  }

  // An executor whose jobs go through `transport` (null: the commands).
  std::unique_ptr<SlurmExecutor> make(EventLog& log,
                                      std::shared_ptr<SlurmTransport> transport = nullptr) {
    SlurmExecutorOptions options;
    options.submit.log_dir = log_dir_;
    options.submit.partition = "gpu";
    options.submit.job_prefix = "texec-";
    options.submit.mode = submit_mode_;
    options.sink = &log;
    options.poll_interval = Duration::millis(200);
    options.submit_retry = Duration::millis(500);
    auto executor = std::make_unique<SlurmExecutor>(runner_, clock_, options);
    executor->set_transport(std::move(transport));
    EXPECT_TRUE(executor->start().ok());
    return executor;
  }

  WorkloadLaunch launch(uint64_t id, std::vector<std::string> nodes, std::string command) {
    WorkloadLaunch l;
    l.workload = WorkloadId(id + static_cast<uint64_t>(::getpid()) * 1000);
    l.name = "w" + std::to_string(id);
    l.namespace_name = "vision";
    l.team = TeamId("texec-vision");
    l.command = {"/bin/sh", "-c", std::move(command)};
    l.flavor = "h100";
    int32_t index = 0;
    for (const std::string& node : nodes) {
      l.pods.push_back({index++, NodeId(node), {}, ResourceVector(1, 1000, int64_t{64} << 20)});
    }
    return l;
  }

  std::string log_of(PodId pod) {
    const Result<std::string> log = executor_->read_log(pod, 0, 1 << 20);
    return log.ok() ? *log : "(no log: " + log.status().message() + ")";
  }

  // The pod's log once it holds `text`, or what it holds after 30 s. A job is
  // RUNNING in Slurm before its script has run its first line, so a test that
  // needs the script's state waits for the script to say so.
  std::string log_once_it_holds(PodId pod, const std::string& text) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    std::string log = log_of(pod);
    while (log.find(text) == std::string::npos && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      log = log_of(pod);
    }
    return log;
  }

  // sacct's State of `job` once it holds `state` (slurmdbd records an end a
  // moment after slurmctld), or what it says after 30 s.
  std::string job_state_once(const std::string& job, const std::string& state) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    for (;;) {
      const Result<CommandResult> listed =
          runner_.run({"sacct", "-n", "-X", "-P", "-j", job, "-o", "State"});
      const std::string said = listed.ok() ? listed->out : listed.status().to_string();
      if (said.find(state) != std::string::npos || std::chrono::steady_clock::now() >= deadline) {
        return said;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
  }

  // slurmrestd's URL as scripts/slurm.sh wrote it (DIR/env), or "".
  static std::string rest_url() {
    const std::filesystem::path env =
        std::filesystem::path(executor_slurm_conf()).parent_path().parent_path() / "env";
    std::ifstream in(env);
    for (std::string line; std::getline(in, line);) {
      if (line.starts_with("SLURMRESTD_URL=")) return line.substr(15);
    }
    return "";
  }
  // A JWT for `user` (scontrol token), without "SLURM_JWT=".
  std::string token_of(const std::string& user) {
    const Result<CommandResult> minted =
        runner_.run({"scontrol", "token", "username=" + user, "lifespan=600"});
    if (!minted.ok() || !minted->succeeded()) return "";
    std::string token = minted->out.substr(minted->out.find('=') + 1);
    while (!token.empty() && token.back() == '\n') token.pop_back();
    return token;
  }
  // slurmrestd as root with `token`, placing held jobs with scontrol
  // (counted in placements_).
  std::shared_ptr<RestTransport> rest(const std::string& url, const std::string& token) {
    RestSettings settings;
    settings.url = url;
    settings.user = "root";
    settings.token = token;
    settings.timeout = Duration::seconds(20);
    settings.placer = [this](const std::string& id, const std::string& nodes) -> Status {
      placements_.fetch_add(1);
      for (const std::vector<std::string>& argv :
           {std::vector<std::string>{"scontrol", "update", "JobId=" + id, "ReqNodeList=" + nodes},
            std::vector<std::string>{"scontrol", "release", id}}) {
        const Result<CommandResult> done = runner_.run(argv);
        if (!done.ok() || !done->succeeded()) return Status(ErrorCode::kUnavailable, argv[1]);
      }
      return Status::ok_status();
    };
    settings.environment = {{"PATH", "/usr/local/bin:/usr/bin:/bin"}};
    return std::make_shared<RestTransport>(std::move(settings));
  }

  std::string log_dir_ = "/tmp/allot-slurm-executor-test-" + std::to_string(::getpid());
  ProcessRunner runner_{slurm_environment(executor_slurm_conf()), Duration::seconds(60)};
  SlurmPolicySync sync_{runner_, {"allot", "gpu"}};
  SystemClock clock_;
  EventLog events_;
  std::unique_ptr<SlurmExecutor> executor_;
  std::atomic<int> placements_{0};               // held jobs placed with scontrol
  SubmitMode submit_mode_ = SubmitMode::kBatch;  // how make()'s executors submit
};

}  // namespace allot::slurm
