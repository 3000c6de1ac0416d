// The executor's allocation sallocs (slurm_executor.h, salloc_process.h),
// without Slurm: Slurm's commands answered by the test, the allocation's
// launcher run for real with a scripted salloc that, as Slurm 22.05's did
// once (docs/benchmarks.md, "A salloc that never ends"), outlives its
// allocation and ignores SIGTERM. The executor signals it only once a poll
// finds the job ended, kills it after the grace, and never signals a process
// that is no longer that salloc.
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/slurm/command_runner.h"
#include "backends/slurm/salloc_process.h"
#include "backends/slurm/slurm_executor.h"
#include "base/clock.h"
#include "base/mutex.h"

namespace allot::slurm {
namespace {

// Slurm's commands as the test sets them: squeue lists `states`, scancel
// ends a job (CANCELLED); the launcher runs for real (PATH: the scripted
// salloc first), or `answer` stands for its output.
class SallocSlurm final : public CommandRunner {
 public:
  // `job_name`: the name squeue gives every job (the workload's, 42's).
  SallocSlurm(const std::string& salloc_dir, std::string job_name)
      : launcher_({"PATH=" + salloc_dir + ":/usr/bin:/bin"}, Duration::seconds(20)),
        job_name_(std::move(job_name)) {}

  Result<CommandResult> run(const std::vector<std::string>& argv) override {
    std::function<void()> hook;
    CommandResult out;
    {
      MutexLock lock(mu_);
      if (argv[0] == "squeue") {
        for (const auto& [id, state] : states_)
          out.out += id + "|" + job_name_ + "|" + state + "|None|n1|0\n";
        hook = std::exchange(on_list_, nullptr);
      } else if (argv[0] == "scancel") {
        cancels_.push_back(argv.back());
        if (argv.size() == 2) states_[argv.back()] = "CANCELLED";
      } else if (argv[0] == "scontrol") {
        out.out = "KillWait                = 30 sec\n";
      }
    }
    if (hook) hook();
    return out;
  }
  Result<CommandResult> run_with_env(const std::vector<std::string>& argv,
                                     const std::vector<std::string>& env) override {
    std::optional<std::string> answer;
    {
      MutexLock lock(mu_);
      answer = answer_;
    }
    Result<CommandResult> ran = answer ? Result<CommandResult>(CommandResult{0, false, *answer, ""})
                                       : launcher_.run_with_env(argv, env);
    if (ran.ok() && ran->succeeded()) {
      MutexLock lock(mu_);
      states_.emplace(ran->out.substr(0, ran->out.find(' ')), "RUNNING");
    }
    return ran;
  }

  void set_answer(std::string answer) {
    MutexLock lock(mu_);
    answer_ = std::move(answer);
  }
  void set_state(const std::string& id, const std::string& state) {
    MutexLock lock(mu_);
    states_[id] = state;
  }
  void forget(const std::string& id) {
    MutexLock lock(mu_);
    states_.erase(id);
  }
  // Run (no lock held) while the next squeue answers: a listing under way.
  void on_next_list(std::function<void()> hook) {
    MutexLock lock(mu_);
    on_list_ = std::move(hook);
  }
  std::vector<std::string> cancels() {
    MutexLock lock(mu_);
    return cancels_;
  }

 private:
  ProcessRunner launcher_;
  const std::string job_name_;
  Mutex mu_;
  std::map<std::string, std::string> states_ ALLOT_GUARDED_BY(mu_);
  std::vector<std::string> cancels_ ALLOT_GUARDED_BY(mu_);
  std::optional<std::string> answer_ ALLOT_GUARDED_BY(mu_);
  std::function<void()> on_list_ ALLOT_GUARDED_BY(mu_);
};

bool salloc_test_runs(int64_t pid) { return running_process_start(pid).has_value(); }

// Whether `done` holds within 10 s.
bool salloc_test_within(const std::function<bool()>& done) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

class SlurmSallocTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_);
    // Granted, then deaf to SIGTERM (it notes each one) until killed.
    std::ofstream(dir_ / "salloc") << R"(#!/bin/sh
here=$(dirname "$0")
trap 'echo TERM >> "$here/signals"' TERM
echo $$ > "$here/pid"
echo "salloc: Granted job allocation 77" >&2
while :; do sleep 0.05; done
)";
    std::filesystem::permissions(dir_ / "salloc", std::filesystem::perms::owner_all);
    executor_ = make_executor(2);
  }
  // An executor for which a job missing from `lost_after` listings in a row ended.
  std::unique_ptr<SlurmExecutor> make_executor(int lost_after) {
    SlurmExecutorOptions options;
    options.submit.log_dir = dir_.string();
    options.submit.mode = SubmitMode::kAllocation;
    // This process's own prefix: the sallocs of tests running beside this
    // one are not this executor's (watch_running_sallocs()).
    options.submit.job_prefix = job_prefix();
    options.poll_interval = Duration::seconds(3600);  // the test polls
    options.fast_poll_interval = Duration();
    options.salloc_grace = Duration::seconds(2);
    options.lost_after = lost_after;
    auto executor = std::make_unique<SlurmExecutor>(slurm_, clock_, options);
    EXPECT_TRUE(executor->start().ok());
    return executor;
  }
  void TearDown() override {
    executor_.reset();
    if (const std::string pid = read("pid"); !pid.empty()) ::kill(std::stoi(pid), SIGKILL);
    if (other_ > 0) {
      ::kill(other_, SIGKILL);
      ::waitpid(other_, nullptr, 0);
    }
    std::filesystem::remove_all(dir_);
  }

  std::string read(const std::string& name) const {
    std::ifstream in(dir_ / name);
    std::stringstream text;
    text << in.rdbuf();
    return without_trailing_space(text.str());
  }

  static WorkloadLaunch launch_of() {
    WorkloadLaunch l;
    l.workload = WorkloadId(42);
    l.name = "w";
    l.namespace_name = "vision";
    l.team = TeamId("vision");
    l.command = {"true"};
    l.pods.push_back({0, NodeId("n1"), {}, ResourceVector(1, 1000, int64_t{64} << 20)});
    return l;
  }

  // Launched and submitted (the launcher answered).
  void launched() {
    executor_->launch(launch_of());
    ASSERT_TRUE(salloc_test_within([&] { return executor_->submitted() == 1; }));
  }

  // A process that is not the salloc (sleep 30; SIGTERM ends it), this test's child.
  int64_t other_process() {
    char sleep[] = "/bin/sleep";
    char thirty[] = "30";
    char* argv[] = {sleep, thirty, nullptr};
    pid_t pid = 0;
    EXPECT_EQ(::posix_spawn(&pid, sleep, nullptr, nullptr, argv, environ), 0);
    other_ = pid;
    return pid;
  }

  static std::string job_prefix() { return "allot-t" + std::to_string(::getpid()) + "-"; }

  static std::filesystem::path salloc_dir() {
    return std::filesystem::temp_directory_path() /
           ("allot-salloc-kill-test-" + std::to_string(::getpid()));
  }

  std::filesystem::path dir_ = salloc_dir();
  ManualClock clock_;
  SallocSlurm slurm_{salloc_dir().string(), job_prefix() + "42"};
  std::unique_ptr<SlurmExecutor> executor_;
  pid_t other_ = 0;
};

TEST(SlurmSallocAnswer, TheLaunchersAnswerIsTheJobIdThenSallocsPidAndStartTime) {
  const AllocationAnswer full = parse_allocation_answer("77 4242 987654").value();
  EXPECT_EQ(full.job_id, "77");
  EXPECT_EQ(full.salloc, (SallocProcess{4242, 987654}));

  const AllocationAnswer no_start = parse_allocation_answer("78 4243").value();
  EXPECT_EQ(no_start.job_id, "78");
  EXPECT_FALSE(no_start.salloc.has_value()) << "a pid alone names no process for sure";

  EXPECT_FALSE(parse_allocation_answer("salloc: error").ok());
  EXPECT_FALSE(parse_allocation_answer("").ok());
}

TEST_F(SlurmSallocTest, ASallocThatOutlivesItsCancelledAllocationIsTermedThenKilled) {
  launched();
  const std::string pid_text = read("pid");
  ASSERT_FALSE(pid_text.empty());
  const int64_t pid = std::stoll(pid_text);
  executor_->poll_once();  // RUNNING

  executor_->stop(WorkloadId(42), Duration());
  EXPECT_EQ(slurm_.cancels(), std::vector<std::string>{"77"});
  EXPECT_TRUE(salloc_test_runs(pid));
  EXPECT_EQ(read("signals"), "") << "nothing before Slurm reports the job ended";

  executor_->poll_once();  // CANCELLED: SIGTERM
  EXPECT_TRUE(salloc_test_within([&] { return read("signals") == "TERM"; })) << read("signals");
  executor_->poll_once();
  EXPECT_TRUE(salloc_test_runs(pid)) << "deaf to SIGTERM, and the grace has not passed";
  EXPECT_EQ(read("signals"), "TERM") << "one SIGTERM";

  clock_.advance(Duration::seconds(2));
  executor_->poll_once();  // the grace passed: SIGKILL
  EXPECT_TRUE(salloc_test_within([&] { return !salloc_test_runs(pid); })) << "salloc still runs";
}

TEST_F(SlurmSallocTest, ASallocWhoseJobRunsIsLeftAlone) {
  launched();
  const int64_t pid = std::stoll(read("pid"));

  executor_->poll_once();
  clock_.advance(Duration::seconds(60));
  executor_->poll_once();

  EXPECT_TRUE(salloc_test_runs(pid));
  EXPECT_EQ(read("signals"), "");
}

TEST_F(SlurmSallocTest,
       AJobSlurmNoLongerListsHasEndedOnceLostAfterPollsMissItAndItsSallocIsTermed) {
  launched();
  executor_->poll_once();

  slurm_.forget("77");
  executor_->poll_once();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(read("signals"), "") << "missing from one listing: not yet taken for ended";
  executor_->poll_once();  // from lost_after (2) in a row

  EXPECT_TRUE(salloc_test_within([&] { return read("signals") == "TERM"; })) << read("signals");
}

TEST_F(SlurmSallocTest, APidThatIsNoLongerThatSallocIsNeverSignalled) {
  const int64_t other = other_process();
  const std::optional<uint64_t> start = running_process_start(other);
  ASSERT_TRUE(start.has_value());
  // The launcher named a salloc that has since ended, its pid now another process's.
  slurm_.set_answer("77 " + std::to_string(other) + " " + std::to_string(*start - 1));
  launched();
  executor_->poll_once();

  executor_->stop(WorkloadId(42), Duration());
  executor_->poll_once();
  clock_.advance(Duration::seconds(2));
  executor_->poll_once();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));

  EXPECT_TRUE(salloc_test_runs(other)) << "signalled a process that is not the salloc";
  EXPECT_EQ(signal_salloc({other, *start - 1}, SIGKILL), Signalled::kGone);
  EXPECT_TRUE(salloc_test_runs(other));
}

// Kernels without pidfds (before 5.3) take the other path: the start time
// compared, then kill(). A process named with another start time is left
// alone; named rightly, it is signalled; once it is gone, it is kGone.
TEST_F(SlurmSallocTest, WithoutPidfdsOnlyTheProcessNamedWithItsStartTimeIsSignalled) {
  const int64_t other = other_process();
  const std::optional<uint64_t> start = running_process_start(other);
  ASSERT_TRUE(start.has_value());
  EXPECT_EQ(signal_salloc({other, *start - 1}, SIGKILL, PidfdUse::kNever), Signalled::kGone);
  EXPECT_TRUE(salloc_test_runs(other));
  EXPECT_EQ(signal_salloc({other, *start}, SIGKILL, PidfdUse::kNever), Signalled::kSent);
  EXPECT_TRUE(salloc_test_within([&] { return !salloc_test_runs(other); }));
  EXPECT_EQ(signal_salloc({other, *start}, SIGKILL, PidfdUse::kNever), Signalled::kGone);
}

// The same process named rightly is signalled: the test above is not
// passing for want of a signal.
TEST_F(SlurmSallocTest, TheProcessNamedWithItsStartTimeIsSignalled) {
  const int64_t other = other_process();
  const std::optional<uint64_t> start = running_process_start(other);
  ASSERT_TRUE(start.has_value());
  slurm_.set_answer("77 " + std::to_string(other) + " " + std::to_string(*start));
  launched();
  executor_->poll_once();

  executor_->stop(WorkloadId(42), Duration());
  executor_->poll_once();

  EXPECT_TRUE(salloc_test_within([&] { return !salloc_test_runs(other); }));
}

// A poll whose squeue ran before the submission answered does not list the
// job: that is no end, even where one missing listing would be.
TEST_F(SlurmSallocTest, AListingThatBeganBeforeTheSubmissionAnsweredIsNoEnd) {
  executor_ = make_executor(1);
  const int64_t other = other_process();
  const std::optional<uint64_t> start = running_process_start(other);
  ASSERT_TRUE(start.has_value());
  slurm_.set_answer("77 " + std::to_string(other) + " " + std::to_string(*start));
  slurm_.on_next_list([&] {
    executor_->launch(launch_of());  // submitted while squeue answers without it
    EXPECT_TRUE(salloc_test_within([&] { return executor_->submitted() == 1; }));
  });

  executor_->poll_once();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));

  EXPECT_TRUE(salloc_test_runs(other)) << "signalled the salloc of a job the listing predates";
  executor_->poll_once();  // this one lists it
  EXPECT_TRUE(salloc_test_runs(other));
}

// allotd restarted while an allocation ran: the new executor finds its salloc
// by the job name it was started with, adopts the job, and ends the salloc
// once Slurm reports the job ended, as for one it launched itself.
TEST_F(SlurmSallocTest, ASallocStartedBeforeARestartIsFoundByItsJobNameAndEndedWithItsJob) {
  launched();
  const int64_t pid = std::stoll(read("pid"));
  executor_.reset();  // allotd stops; the job and its salloc stay
  ASSERT_TRUE(salloc_test_runs(pid));
  executor_ = make_executor(2);
  executor_->launch(launch_of());  // adopted, not launched again
  executor_->poll_once();          // RUNNING
  EXPECT_EQ(executor_->submitted(), 0);
  EXPECT_EQ(read("signals"), "");

  slurm_.set_state("77", "CANCELLED");
  executor_->poll_once();  // ended: SIGTERM
  EXPECT_TRUE(salloc_test_within([&] { return read("signals") == "TERM"; })) << read("signals");
  clock_.advance(Duration::seconds(2));
  executor_->poll_once();  // the grace passed: SIGKILL
  EXPECT_TRUE(salloc_test_within([&] { return !salloc_test_runs(pid); })) << "salloc still runs";
}

// Found at start for a job Slurm listed then, and no longer lists (it ended
// and Slurm forgot it): ended once `lost_after` polls in a row miss it.
TEST_F(SlurmSallocTest,
       ASallocFoundAtStartWhoseJobNoListingHoldsAnyMoreIsEndedAfterLostAfterPolls) {
  launched();
  executor_.reset();
  executor_ = make_executor(2);  // lists 77
  slurm_.forget("77");
  executor_->poll_once();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(read("signals"), "") << "missing from one listing: not yet taken for ended";
  executor_->poll_once();
  EXPECT_TRUE(salloc_test_within([&] { return read("signals") == "TERM"; })) << read("signals");
}

// A salloc whose job name Slurm does not list at the start is not this
// executor's to judge (another allotd's on this host, for another cluster,
// may use the same prefix): never signalled.
TEST_F(SlurmSallocTest, ASallocOfAJobNameSlurmDoesNotListAtStartIsNotWatched) {
  launched();
  const int64_t pid = std::stoll(read("pid"));
  executor_.reset();
  slurm_.forget("77");
  executor_ = make_executor(2);
  for (int i = 0; i < 4; ++i) executor_->poll_once();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_TRUE(salloc_test_runs(pid));
  EXPECT_EQ(read("signals"), "");
}

// A salloc known by name only is judged by a live job of that name first:
// an ended job of the same name (the workload's earlier run) never gets the
// salloc of the one that runs signalled.
TEST_F(SlurmSallocTest, ASallocFoundAtStartIsLeftAloneWhileAJobOfItsNameRuns) {
  launched();
  const int64_t pid = std::stoll(read("pid"));
  executor_.reset();
  slurm_.set_state("76", "CANCELLED");  // an earlier run of the workload
  executor_ = make_executor(2);
  executor_->poll_once();
  clock_.advance(Duration::seconds(60));
  executor_->poll_once();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_TRUE(salloc_test_runs(pid));
  EXPECT_EQ(read("signals"), "");
}

// running_sallocs() on a made-up /proc: only processes named "salloc" with
// a wanted `--job-name=`, running (not zombies), each name claimed once.
TEST(RunningSallocs, AreFoundByTheJobNameTheyWereStartedWith) {
  const std::filesystem::path proc =
      std::filesystem::temp_directory_path() / ("allot-fake-proc-" + std::to_string(::getpid()));
  std::filesystem::remove_all(proc);
  const auto process = [&](int pid, const std::string& comm, const std::string& state,
                           const std::vector<std::string>& argv) {
    const std::filesystem::path dir = proc / std::to_string(pid);
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "comm") << comm << "\n";
    std::string cmdline;
    for (const std::string& arg : argv) cmdline += arg + '\0';
    std::ofstream(dir / "cmdline", std::ios::binary) << cmdline;
    // Fields 3 (state) to 22 (start time: 1000 + pid), and more.
    std::ofstream(dir / "stat") << pid << " (" << comm << ") " << state
                                << " 1 1 1 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 " << 1000 + pid
                                << " 0 0\n";
  };
  process(10, "salloc", "S", {"salloc", "--job-name=allot-1", "srun", "true"});
  process(11, "salloc", "S", {"/bin/sh", "/x/salloc", "-N1", "--job-name=allot-2"});
  process(12, "salloc", "S", {"salloc", "--job-name=other-3"});  // not wanted
  process(13, "sbatch", "S", {"sbatch", "--job-name=allot-4"});  // not a salloc
  process(14, "salloc", "Z", {"salloc", "--job-name=allot-5"});  // a zombie
  process(15, "salloc", "S", {"salloc", "--job-name=allot-6"});  // claimed twice
  process(16, "salloc", "S", {"salloc", "--job-name=allot-6"});
  process(17, "salloc", "S", {"salloc", "--job-name", "allot-7"});  // no `=`: not read
  std::filesystem::create_directories(proc / "self");
  const RunningSallocs found = running_sallocs(
      [](std::string_view name) { return name.starts_with("allot-"); }, proc.string());
  EXPECT_EQ(found.by_job_name,
            (std::map<std::string, SallocProcess>{{"allot-1", SallocProcess{10, 1010}},
                                                  {"allot-2", SallocProcess{11, 1011}}}));
  EXPECT_EQ(found.ambiguous, std::vector<std::string>{"allot-6"});
  std::filesystem::remove_all(proc);
}

}  // namespace
}  // namespace allot::slurm
