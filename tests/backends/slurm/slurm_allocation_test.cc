// slurm_jobs.h's SubmitMode::kAllocation: a workload asked of Slurm as an
// allocation (salloc running the script as an srun step), which slurmctld
// starts inside the request; and its launcher, run for real with a scripted
// salloc: the job id as soon as salloc names it, salloc left running in a
// session of its own, salloc's refusal as sbatch's would be, salloc's pid and
// start time named with the job id.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <unistd.h>

#include "backends/slurm/command_runner.h"
#include "backends/slurm/salloc_process.h"
#include "backends/slurm/slurm_jobs.h"
#include "backends/slurm/slurm_transport.h"

namespace allot::slurm {
namespace {

WorkloadLaunch allocation_launch_of(std::vector<std::string> nodes) {
  WorkloadLaunch launch;
  launch.workload = WorkloadId(42);
  launch.name = "train";
  launch.namespace_name = "vision";
  launch.team = TeamId("vision");
  launch.command = {"python", "it's.py"};
  launch.flavor = "h100";
  launch.priority_class = "prod";
  launch.max_runtime = Duration::seconds(90);
  int32_t index = 0;
  for (const std::string& node : nodes) {
    launch.pods.push_back({index++, NodeId(node), {}, ResourceVector(2, 2500, int64_t{3} << 30)});
  }
  return launch;
}

SubmitSettings allocation_settings() {
  SubmitSettings settings{"allot-", "gpu", "/logs"};
  settings.mode = SubmitMode::kAllocation;
  return settings;
}

// The words of argv from `from` (inclusive) to `to` (exclusive).
std::vector<std::string> words_between(const std::vector<std::string>& argv,
                                       const std::string& from, const std::string& to) {
  const auto begin = std::find(argv.begin(), argv.end(), from);
  const auto end = std::find(begin, argv.end(), to);
  return {begin, end};
}

bool holds(const std::vector<std::string>& words, const std::string& word) {
  return std::find(words.begin(), words.end(), word) != words.end();
}

TEST(SlurmAllocation, AnAllocationIsSallocWithTheJobsOptionsRunningTheScriptAsOneStep) {
  const JobOwner owner{"allot-vision", 1234, 567, "/data/teams/vision/home"};

  const Submission s = submission_of(allocation_launch_of({"node1"}), allocation_settings(),
                                     "/logs/42.sbatch", owner)
                           .value();

  EXPECT_EQ(s.tool, "salloc");
  ASSERT_GE(s.argv.size(), 6U);
  EXPECT_EQ(s.argv[0], "sh");
  EXPECT_EQ(s.argv[1], "-c");
  EXPECT_EQ(s.argv[4], "/logs/42-salloc.log") << "salloc's own messages, apart from the pod's";
  EXPECT_EQ(words_between(s.argv, "setpriv", "salloc"),
            (std::vector<std::string>{"setpriv", "--reuid=1234", "--regid=567", "--clear-groups"}))
      << "salloc runs as the owner: the grant of a queued allocation is the owner's to decode";
  const std::vector<std::string> salloc = words_between(s.argv, "salloc", "srun");
  for (const char* arg :
       {"--job-name=allot-42", "--account=vision", "--qos=prod", "--partition=gpu", "--nodes=1",
        "--ntasks=1", "--nodelist=node1", "--gres=gpu:h100:2", "--cpus-per-task=3", "--mem=3072",
        "--time=3", "--chdir=/tmp"}) {
    EXPECT_TRUE(holds(salloc, arg)) << arg;
  }
  for (const std::string& arg : salloc) {
    EXPECT_FALSE(arg.starts_with("--output") || arg == "--no-requeue" || arg == "--parsable" ||
                 arg.starts_with("--export") || arg.starts_with("--uid") ||
                 arg.starts_with("--gid"))
        << arg << " is sbatch's (or root's), not this salloc's";
  }
  const std::vector<std::string> srun = words_between(s.argv, "srun", "");
  EXPECT_EQ(srun, (std::vector<std::string>{"srun", "--kill-on-bad-exit=1", "--open-mode=append",
                                            "--output=/logs/42-%t.log", "/bin/sh", "-c",
                                            "eval \"$ALLOT_JOB_SCRIPT\""}))
      << "the script comes in the environment, not in argv";
  EXPECT_EQ(s.env, (std::vector<std::string>{"ALLOT_JOB_SCRIPT=" + s.script}));
  EXPECT_EQ(pod_log_path("/logs", {WorkloadId(42), 0}), "/logs/42-0.log")
      << "the step's task 0 writes the pod's log";
  EXPECT_NE(s.script.find("export HOME='/data/teams/vision/home'\n"), std::string::npos);
  EXPECT_NE(s.script.find("exec 'python' 'it'\\''s.py'\n"), std::string::npos) << s.script;
}

// A launch whose env holds a value no argv may show (/proc/PID/cmdline is
// everyone's to read).
WorkloadLaunch secret_launch() {
  WorkloadLaunch launch = allocation_launch_of({"node1", "node2"});
  launch.env = {{"API_TOKEN", "tok-3f9a'c1"}, {"PLAIN", "visible"}};
  return launch;
}

TEST(SlurmAllocation, NoValueOfTheWorkloadsEnvAndNoScriptTextIsInAnyArgvWord) {
  const JobOwner owner{"allot-vision", 1234, 567, "/data/teams/vision/home"};

  const Submission s =
      submission_of(secret_launch(), allocation_settings(), "/logs/42.sbatch", owner).value();

  for (const std::string& word : s.argv) {
    EXPECT_EQ(word.find("tok-3f9a"), std::string::npos) << word;
    EXPECT_EQ(word.find("visible"), std::string::npos) << word;
    EXPECT_EQ(word.find("export "), std::string::npos) << word;
  }
  ASSERT_EQ(s.env.size(), 1U);
  EXPECT_TRUE(s.env[0].starts_with("ALLOT_JOB_SCRIPT=#!/bin/sh\n")) << s.env[0];
  EXPECT_NE(s.env[0].find("export API_TOKEN='tok-3f9a'\\''c1'\n"), std::string::npos) << s.env[0];
}

TEST(SlurmAllocation, TheBatchScriptHoldsTheEnvAndArgvOnlyItsPath) {
  const Submission s =
      submission_of(secret_launch(), {"allot-", "gpu", "/logs"}, "/logs/42.sbatch").value();

  for (const std::string& word : s.argv)
    EXPECT_EQ(word.find("tok-3f9a"), std::string::npos) << word;
  EXPECT_EQ(s.argv.back(), "/logs/42.sbatch");
  EXPECT_TRUE(s.env.empty());
  EXPECT_NE(s.script.find("export API_TOKEN="), std::string::npos) << s.script;
}

// The task's command run here as srun would run it on the node, with the
// environment the submission carries: the command sees the workload's env,
// and not the variable that carried the script.
TEST(SlurmAllocation, TheTaskRunsTheScriptFromTheEnvironmentAndUnsetsItsCarrier) {
  WorkloadLaunch launch = secret_launch();
  launch.command = {"/bin/sh", "-c",
                    "echo \"token=$API_TOKEN plain=$PLAIN carrier=${ALLOT_JOB_SCRIPT-unset}\""};
  const Submission s = submission_of(launch, allocation_settings(), "/s").value();
  const std::vector<std::string> srun = words_between(s.argv, "srun", "");
  ASSERT_GE(srun.size(), 3U);
  ProcessRunner runner({"PATH=/usr/bin:/bin"}, Duration::seconds(20));

  const Result<CommandResult> ran = runner.run_with_env({srun.end() - 3, srun.end()}, s.env);

  ASSERT_TRUE(ran.ok()) << ran.status().message();
  EXPECT_EQ(ran->exit_code, 0) << ran->err;
  EXPECT_EQ(ran->out, "token=tok-3f9a'c1 plain=visible carrier=unset\n");
}

TEST(SlurmAllocation, WithoutAnOwnerSallocRunsAsWhoeverRunsIt) {
  const Submission s =
      submission_of(allocation_launch_of({"node1"}), allocation_settings(), "/s").value();

  EXPECT_EQ(s.argv[5], "salloc");
  EXPECT_FALSE(holds(s.argv, "setpriv"));
}

TEST(SlurmAllocation, AGangsTasksEachExecTheCommandWithoutAnSrunOfTheirOwn) {
  const Submission s =
      submission_of(allocation_launch_of({"node1", "node2"}), allocation_settings(), "/s").value();

  const std::vector<std::string> salloc = words_between(s.argv, "salloc", "srun");
  for (const char* arg : {"--nodes=2", "--ntasks=2", "--ntasks-per-node=1",
                          "--nodelist=node1,node2", "--gres=gpu:h100:2"}) {
    EXPECT_TRUE(holds(salloc, arg)) << arg;
  }
  EXPECT_EQ(s.script.find("srun"), std::string::npos) << s.script;
  EXPECT_NE(s.script.find("exec 'python'"), std::string::npos) << s.script;
}

TEST(SlurmAllocation, AHandedOverAllocationWaitsForTheJobsItFollows) {
  const Submission s = submission_of(allocation_launch_of({"node1"}), allocation_settings(), "/s",
                                     std::nullopt, {"17", "18"})
                           .value();

  EXPECT_TRUE(holds(words_between(s.argv, "salloc", "srun"), "--dependency=afterany:17:18"));
}

// A scripted salloc in a folder of its own: what it is asked and in which
// session it runs go to files there; FAKE_SALLOC says how it answers.
class SallocLauncherTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("allot-salloc-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    std::ofstream(dir_ / "salloc") << R"(#!/bin/sh
echo "$@" > "$(dirname "$0")/argv"
printf '%s' "$ALLOT_JOB_SCRIPT" > "$(dirname "$0")/carried"
echo $$ > "$(dirname "$0")/pid"
cut -d' ' -f6 /proc/$$/stat > "$(dirname "$0")/sid"
case "$FAKE_SALLOC" in
  granted) echo "salloc: Granted job allocation 77" >&2 ;;
  pending) echo "salloc: Pending job allocation 78" >&2
           echo "salloc: job 78 queued and waiting for resources" >&2 ;;
  refused) echo "salloc: error: Job submit/allocate failed: Invalid account" >&2; exit 1 ;;
  slow) /bin/sleep 1; echo "salloc: Granted job allocation 79" >&2 ;;
  queued-then-granted)  # both lines in one write: any read of the file sees both
    printf 'salloc: Pending job allocation 80\nsalloc: Granted job allocation 80\n' >&2 ;;
esac
exec /bin/sleep 30
)";
    std::filesystem::permissions(dir_ / "salloc", std::filesystem::perms::owner_all);
  }
  void TearDown() override {
    if (const std::string pid = read("pid"); !pid.empty()) ::kill(std::stoi(pid), SIGKILL);
    std::filesystem::remove_all(dir_);
  }

  std::string read(const std::string& name) const {
    std::ifstream in(dir_ / name);
    std::stringstream text;
    text << in.rdbuf();
    return without_trailing_space(text.str());
  }

  Result<std::string> submit(const std::string& answer) {
    SubmitSettings settings = allocation_settings();
    settings.log_dir = dir_.string();
    Submission s = submission_of(allocation_launch_of({"node1"}), settings, "/s").value();
    ProcessRunner runner({"PATH=" + dir_.string() + ":/usr/bin:/bin", "FAKE_SALLOC=" + answer},
                         Duration::seconds(20));
    CommandTransport transport(runner);
    return transport.submit(s, std::nullopt);
  }

  std::filesystem::path dir_;
};

TEST_F(SallocLauncherTest, TheJobIdComesOnceGrantedWhileSallocKeepsRunningInItsOwnSession) {
  const auto start = std::chrono::steady_clock::now();

  const Result<std::string> id = submit("granted");

  ASSERT_TRUE(id.ok()) << id.status().message();
  EXPECT_EQ(*id, "77");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10))
      << "the launcher does not wait for the job";
  const std::string pid = read("pid");
  ASSERT_FALSE(pid.empty());
  EXPECT_EQ(::kill(std::stoi(pid), 0), 0) << "salloc still holds the allocation";
  EXPECT_EQ(read("sid"), pid) << "salloc leads a session of its own (it outlives allotd)";
  EXPECT_NE(read("argv").find("--job-name=allot-42"), std::string::npos) << read("argv");
  EXPECT_NE(read("42-salloc.log").find("Granted job allocation 77"), std::string::npos);
  EXPECT_NE(read("carried").find("exec 'python' 'it'\\''s.py'"), std::string::npos)
      << "salloc (and so srun and the task) gets the script in its environment: "
      << read("carried");
}

// allotd signals that process once the job ended (salloc_process.h): the
// launcher names salloc itself, the process that leads its session.
TEST_F(SallocLauncherTest, TheLauncherNamesSallocsPidAndStartTimeWithTheJobId) {
  SubmitSettings settings = allocation_settings();
  settings.log_dir = dir_.string();
  const Submission s = submission_of(allocation_launch_of({"node1"}), settings, "/s").value();
  ProcessRunner runner({"PATH=" + dir_.string() + ":/usr/bin:/bin", "FAKE_SALLOC=granted"},
                       Duration::seconds(20));

  const Result<AllocationAnswer> answer = CommandTransport(runner).allocate(s);

  ASSERT_TRUE(answer.ok()) << answer.status().message();
  EXPECT_EQ(answer->job_id, "77");
  ASSERT_TRUE(answer->salloc.has_value());
  EXPECT_EQ(std::to_string(answer->salloc->pid), read("pid"));
  EXPECT_EQ(running_process_start(answer->salloc->pid), answer->salloc->start);
}

TEST_F(SallocLauncherTest, AnEarlierRunsGrantInTheFileIsNotTakenForThisOnes) {
  std::ofstream(dir_ / "42-salloc.log") << "salloc: Granted job allocation 5\n";

  const Result<std::string> id = submit("granted");

  ASSERT_TRUE(id.ok()) << id.status().message();
  EXPECT_EQ(*id, "77");
}

TEST_F(SallocLauncherTest, AGrantThatComesLateIsStillTaken) {
  const Result<std::string> id = submit("slow");  // granted after 1 s

  ASSERT_TRUE(id.ok()) << id.status().message();
  EXPECT_EQ(*id, "79");
}

TEST_F(SallocLauncherTest, AQueuedAllocationsIdComesAtOnceToo) {
  const Result<std::string> id = submit("pending");

  ASSERT_TRUE(id.ok()) << id.status().message();
  EXPECT_EQ(*id, "78");
}

// A queued allocation granted before the launcher read salloc's messages
// leaves two lines that name the job: the launcher names it once (named twice,
// allotd took the answer for an unknown job and cancelled its own running job
// as an orphan).
TEST_F(SallocLauncherTest, AQueuedAllocationGrantedBeforeTheLauncherReadsIsNamedOnce) {
  const Result<std::string> id = submit("queued-then-granted");

  ASSERT_TRUE(id.ok()) << id.status().message();
  EXPECT_EQ(*id, "80");
}

TEST_F(SallocLauncherTest, SallocsRefusalIsARefusedJobWithItsWords) {
  const Result<std::string> id = submit("refused");

  ASSERT_FALSE(id.ok());
  EXPECT_EQ(id.status().code(), ErrorCode::kFailedPrecondition);
  EXPECT_NE(id.status().message().find("salloc refused the job"), std::string::npos)
      << id.status().message();
  EXPECT_NE(id.status().message().find("Invalid account"), std::string::npos)
      << id.status().message();
}

}  // namespace
}  // namespace allot::slurm
