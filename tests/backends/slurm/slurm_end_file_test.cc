// Ends told by the job (slurm_jobs.h end_files): the script, run by a real
// shell, runs the command, writes "<SLURM_JOB_ID> <status>" to the end file and
// exits with the command's status; the file is read for its own job id only;
// the allocation launcher's answer (job id and salloc's pid) is read strictly;
// process_watch.h kills a process only while its pid is still that process.
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backends/slurm/process_watch.h"
#include "backends/slurm/slurm_jobs.h"

namespace allot::slurm {
namespace {

WorkloadLaunch end_file_launch_of(std::vector<std::string> command) {
  WorkloadLaunch launch;
  launch.workload = WorkloadId(42);
  launch.team = TeamId("vision");
  launch.command = std::move(command);
  launch.pods.push_back({0, NodeId("node1"), {}, ResourceVector(1, 0, 0)});
  return launch;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(SlurmEndFile, TheScriptRunsTheCommandThenWritesItsJobIdAndStatusAndExitsWithIt) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("allot-end-file-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  SubmitSettings settings{"allot-", "gpu", dir.string()};
  settings.end_files = true;
  const Submission s = submission_of(end_file_launch_of({"sh", "-c", "echo ran; exit 3"}), settings,
                                     dir / "42.sbatch")
                           .value();
  std::ofstream(dir / "42.sbatch") << s.script;

  const std::string run =
      "SLURM_JOB_ID=4711 sh " + (dir / "42.sbatch").string() + " > " + (dir / "out").string();
  const int status = std::system(run.c_str());

  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 3) << "the job's status is the command's";
  EXPECT_EQ(read_file(dir / "out"), "ran\n");
  EXPECT_EQ(read_file(end_file_path(dir.string(), WorkloadId(42))), "4711 3\n");
  EXPECT_EQ(parse_end_file(read_file(end_file_path(dir.string(), WorkloadId(42))), "4711"), 3);
  std::filesystem::remove_all(dir);
}

TEST(SlurmEndFile, WithoutEndFilesTheScriptExecsTheCommandAsBefore) {
  const Submission s =
      submission_of(end_file_launch_of({"true"}), {"allot-", "gpu", "/logs"}, "/s").value();

  EXPECT_NE(s.script.find("exec 'true'\n"), std::string::npos) << s.script;
  EXPECT_EQ(s.script.find(".end"), std::string::npos) << s.script;
}

TEST(SlurmEndFile, OnlyACompleteLineOfTheJobsOwnIdIsAnEnd) {
  EXPECT_EQ(parse_end_file("", "7"), std::nullopt) << "not ended yet";
  EXPECT_EQ(parse_end_file("7 0", "7"), std::nullopt) << "being written";
  EXPECT_EQ(parse_end_file("6 0\n", "7"), std::nullopt) << "an earlier run's job";
  EXPECT_EQ(parse_end_file("7 x\n", "7"), std::nullopt);
  EXPECT_EQ(parse_end_file("7 300\n", "7"), std::nullopt);
  EXPECT_EQ(parse_end_file("7 0\n", "7"), 0);
  EXPECT_EQ(parse_end_file("7 143\n", "7"), 143);
}

TEST(SlurmEndFile, TheLaunchersAnswerIsOneJobIdAndSallocsPid) {
  const AllocationAnswer both = parse_allocation_answer("77 4242").value();
  EXPECT_EQ(both.job_id, "77");
  EXPECT_EQ(both.salloc_pid, 4242);
  EXPECT_EQ(parse_allocation_answer("77").value().salloc_pid, 0) << "no pid named";
  EXPECT_FALSE(parse_allocation_answer("77\n77 4242").ok())
      << "two ids (a queued allocation granted before the launcher read) are never one id";
  EXPECT_FALSE(parse_allocation_answer("").ok());
  EXPECT_FALSE(parse_allocation_answer("77 4242 1").ok());
}

TEST(ProcessWatch, AProcessIsKilledOnlyWhileItsPidIsStillThatProcess) {
  const pid_t child = ::fork();
  if (child == 0) {
    ::execl("/bin/sleep", "sleep", "300", nullptr);
    ::_exit(127);
  }
  const std::optional<uint64_t> ticks = process_start_ticks(child);
  ASSERT_TRUE(ticks.has_value());

  EXPECT_FALSE(kill_if_same(child, *ticks + 1)) << "another process's start: a reused pid";
  EXPECT_EQ(::kill(child, 0), 0) << "left alone";
  EXPECT_TRUE(kill_if_same(child, *ticks));
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
  EXPECT_EQ(process_start_ticks(child), std::nullopt) << "gone";
  EXPECT_FALSE(kill_if_same(child, *ticks));
}

}  // namespace
}  // namespace allot::slurm
