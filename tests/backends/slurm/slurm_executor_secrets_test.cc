// A workload's env may hold secrets, and every local user reads every
// process's argv (/proc/PID/cmdline, ps): against the real Slurm 22.05 (the
// ctest fixture `slurm`, whose nodes are on this host), in batch and in
// allocation mode, a job whose env holds a marker value runs and sees the
// value, while a scan of every pid's cmdline, from before the submission
// until the job has ended, never finds it (and does find the job's own
// command line, so the scan sees the job's processes).
#include <atomic>
#include <chrono>
#include <filesystem>
#include <iterator>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include "backends/slurm/slurm_jobs.h"
#include "base/mutex.h"
#include "slurm_executor_fixture.h"

namespace allot::slurm {
namespace {

// What /proc/PID/cmdline holds, or as much as was read before the process
// went: read(2) then fails with ESRCH, which libstdc++'s filebuf throws as an
// exception (std::ifstream cannot read a vanishing process's files).
std::string read_cmdline(const std::filesystem::path& path) {
  std::string out;
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return out;
  char buffer[4096];
  ssize_t n = 0;
  while ((n = ::read(fd, buffer, sizeof(buffer))) > 0) out.append(buffer, static_cast<size_t>(n));
  ::close(fd);
  return out;
}

// Scans /proc/*/cmdline on a thread of its own until stopped: which pids held
// `secret` (with their command line) and whether any held `visible`.
class ArgvScanner {
 public:
  ArgvScanner(std::string secret, std::string visible)
      : secret_(std::move(secret)), visible_(std::move(visible)), thread_([this] { loop(); }) {}
  ~ArgvScanner() { stop(); }
  ArgvScanner(const ArgvScanner&) = delete;
  ArgvScanner& operator=(const ArgvScanner&) = delete;

  void stop() {
    stopping_ = true;
    if (thread_.joinable()) thread_.join();
  }
  std::set<std::string> holders() const {
    MutexLock lock(mu_);
    return holders_;
  }
  bool saw_visible() const { return saw_visible_; }
  int scans() const { return scans_; }

 private:
  void loop() {
    while (!stopping_) {
      scan_once();
      scans_ += 1;
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  void scan_once() {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
      const std::string pid = entry.path().filename().string();
      if (pid.empty() || pid.find_first_not_of("0123456789") != std::string::npos) continue;
      const std::string cmdline = read_cmdline(entry.path() / "cmdline");
      if (cmdline.find(visible_) != std::string::npos) saw_visible_ = true;
      if (cmdline.find(secret_) == std::string::npos) continue;
      std::string shown = cmdline;
      for (char& c : shown) c = c == '\0' ? ' ' : c;
      MutexLock lock(mu_);
      holders_.insert(pid + ": " + shown.substr(0, 300));
    }
  }

  const std::string secret_;
  const std::string visible_;
  std::atomic<bool> stopping_{false};
  std::atomic<bool> saw_visible_{false};
  std::atomic<int> scans_{0};
  mutable Mutex mu_;
  std::set<std::string> holders_ ALLOT_GUARDED_BY(mu_);
  std::thread thread_;
};

class SlurmSecretsTest : public SlurmExecutorTest,
                         public ::testing::WithParamInterface<SubmitMode> {
 protected:
  void SetUp() override {
    SlurmExecutorTest::SetUp();
    submit_mode_ = GetParam();
  }
};

TEST_P(SlurmSecretsTest, NoProcessShowsTheWorkloadsEnvInItsArgvWhileTheJobSeesIt) {
  const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
  const std::string secret = "s3cr3t-" + std::to_string(::getpid()) + "-" + std::to_string(now);
  const std::string visible = "v1s1ble-" + std::to_string(now);
  executor_ = make(events_);
  const uint64_t id = GetParam() == SubmitMode::kBatch ? 41 : 42;
  WorkloadLaunch l = launch(id, {"node1"}, "echo seen=$ALLOT_TEST_SECRET; sleep 3; : " + visible);
  l.env = {{"ALLOT_TEST_SECRET", secret}};
  ArgvScanner scanner(secret, visible);

  executor_->launch(l);
  const std::vector<PodEvent> exits = events_.wait_for(PodPhase::kExited, 1);
  scanner.stop();

  ASSERT_EQ(exits.size(), 1u);
  EXPECT_TRUE(exits[0].succeeded());
  EXPECT_EQ(log_of({l.workload, 0}), "seen=" + secret + "\n") << "the job sees its env";
  EXPECT_TRUE(scanner.saw_visible())
      << "the scan saw the job's own command line (" << scanner.scans() << " scans)";
  EXPECT_TRUE(scanner.holders().empty()) << "processes whose argv held the env's value: "
                                         << ::testing::PrintToString(scanner.holders());
}

INSTANTIATE_TEST_SUITE_P(BothModes, SlurmSecretsTest,
                         ::testing::Values(SubmitMode::kBatch, SubmitMode::kAllocation),
                         [](const ::testing::TestParamInfo<SubmitMode>& param) {
                           return param.param == SubmitMode::kBatch ? "Batch" : "Allocation";
                         });

}  // namespace
}  // namespace allot::slurm
