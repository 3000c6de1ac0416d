// library_job.h: the executor's sbatch submission read into libslurm's job
// description, field by field, with the environment sbatch --export=ALL
// sends; a flag it cannot map and an allocation are refused, never dropped;
// which of Slurm's errors are refusals (library_transport.h).
#include "backends/slurm/library_job.h"

#include <algorithm>
#include <cerrno>

#include <gtest/gtest.h>
#include <slurm/slurm_errno.h>

#include "backends/slurm/library_transport.h"

namespace allot::slurm {
namespace {

WorkloadLaunch gang_launch(int64_t gpus, bool two_nodes) {
  WorkloadLaunch launch;
  launch.workload = WorkloadId(42);
  launch.name = "train";
  launch.namespace_name = "vision";
  launch.team = TeamId("vision");
  launch.command = {"python", "train.py"};
  launch.flavor = "h100";
  launch.priority_class = "prod";
  launch.max_runtime = Duration::seconds(90);
  launch.pods.push_back({0, NodeId("node1"), {}, ResourceVector(gpus, 2500, int64_t{3} << 30)});
  if (two_nodes) {
    launch.pods.push_back({1, NodeId("node2"), {}, ResourceVector(gpus, 2500, int64_t{3} << 30)});
  }
  return launch;
}

const std::map<std::string, std::string> kBase = {{"PATH", "/usr/bin:/bin"},
                                                  {"SLURM_CONF", "/etc/slurm/slurm.conf"}};

TEST(LibraryJob, EveryFlagOfTheSbatchSubmissionIsAFieldOfTheJob) {
  const JobOwner owner{"allot-vision", 1234, 567, "/data/home"};
  const Submission s = submission_of(gang_launch(2, true), {"allot-", "gpu", "/logs"},
                                     "/logs/42.sbatch", owner, {"17", "18"})
                           .value();

  const LibraryJob job = library_job_of(s, kBase).value();

  EXPECT_EQ(job.name, "allot-42");
  EXPECT_EQ(job.account, "vision");
  EXPECT_EQ(job.partition, "gpu");
  EXPECT_EQ(job.qos, "prod");
  EXPECT_EQ(job.required_nodes, "node1,node2");
  EXPECT_EQ(job.tres_per_node, "gres:gpu:h100:2");
  EXPECT_EQ(job.dependency, "afterany:17:18");
  EXPECT_NE(std::find(job.environment.begin(), job.environment.end(),
                      "SLURM_JOB_DEPENDENCY=afterany:17:18"),
            job.environment.end());
  EXPECT_EQ(job.output, "/logs/42-batch.log");
  EXPECT_EQ(job.work_dir, "/tmp");
  EXPECT_EQ(job.script_path, "/logs/42.sbatch");
  EXPECT_EQ(job.script, s.script);
  EXPECT_EQ(job.nodes, 2u);
  EXPECT_EQ(job.tasks, 2u);
  EXPECT_EQ(job.tasks_per_node, 1u);
  EXPECT_EQ(job.cpus_per_task, 3u);
  EXPECT_EQ(job.memory_mib_per_node, 3072u);
  EXPECT_EQ(job.time_minutes, 3u);
  EXPECT_EQ(job.uid, 1234u);
  EXPECT_EQ(job.gid, 567u);
  EXPECT_TRUE(job.append);
  EXPECT_FALSE(job.requeue);
}

TEST(LibraryJob, TheEnvironmentIsTheBaseWithTheCountsSrunReadsSortedByName) {
  const Submission s =
      submission_of(gang_launch(1, true), {"allot-", "", "/logs"}, "/logs/42.sbatch").value();

  const LibraryJob job = library_job_of(s, kBase).value();

  EXPECT_EQ(job.environment,
            (std::vector<std::string>{"PATH=/usr/bin:/bin", "SLURM_CONF=/etc/slurm/slurm.conf",
                                      "SLURM_CPUS_PER_TASK=3", "SLURM_JOB_NAME=allot-42",
                                      "SLURM_NPROCS=2", "SLURM_NTASKS=2", "SLURM_NTASKS_PER_NODE=1",
                                      "SLURM_OPEN_MODE=a"}));
  EXPECT_EQ(job.partition, "") << "no --partition: Slurm's default";
  EXPECT_FALSE(job.uid.has_value()) << "no owner: whoever submits";
}

TEST(LibraryJob, NoGpusNoLimitAndNoPartitionLeaveTheirFieldsUnset) {
  WorkloadLaunch launch = gang_launch(0, false);
  launch.max_runtime.reset();
  launch.priority_class.clear();
  const Submission s = submission_of(launch, {"allot-", "", "/logs"}, "/s").value();

  const LibraryJob job = library_job_of(s, {}).value();

  EXPECT_EQ(job.tres_per_node, "");
  EXPECT_EQ(job.time_minutes, 0u) << "--time=0: no limit";
  EXPECT_EQ(job.qos, "");
  EXPECT_EQ(job.dependency, "");
}

TEST(LibraryJob, AFlagItCannotMapIsRefusedNamingIt) {
  Submission s = submission_of(gang_launch(1, false), {"allot-", "gpu", "/logs"}, "/s").value();
  s.argv.insert(s.argv.end() - 1, "--exclusive");
  const Result<LibraryJob> job = library_job_of(s, kBase);
  ASSERT_FALSE(job.ok());
  EXPECT_EQ(job.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(job.status().message().find("--exclusive"), std::string::npos)
      << job.status().message();

  s.argv.back() = "--export=NONE";
  EXPECT_FALSE(library_job_of(s, kBase).ok()) << "only --export=ALL is what libslurm sends";
}

TEST(LibraryJob, ANumberThatIsNotOneIsRefusedNamingTheFlag) {
  Submission s = submission_of(gang_launch(1, false), {"allot-", "gpu", "/logs"}, "/s").value();
  for (std::string& arg : s.argv) {
    if (arg.starts_with("--ntasks=")) arg = "--ntasks=two";
  }
  const Result<LibraryJob> job = library_job_of(s, kBase);
  ASSERT_FALSE(job.ok());
  EXPECT_NE(job.status().message().find("--ntasks"), std::string::npos) << job.status().message();

  for (std::string& arg : s.argv) {
    if (arg.starts_with("--ntasks=")) arg = "--ntasks=1";
    if (arg.starts_with("--cpus-per-task=")) arg = "--cpus-per-task=70000";
  }
  const Result<LibraryJob> wide = library_job_of(s, kBase);
  ASSERT_FALSE(wide.ok()) << "libslurm holds cpus per task in 16 bits";
  EXPECT_NE(wide.status().message().find("--cpus-per-task is out of range"), std::string::npos)
      << wide.status().message();
}

TEST(LibraryJob, AnAllocationIsNotALibraryJob) {
  SubmitSettings settings{"allot-", "gpu", "/logs"};
  settings.mode = SubmitMode::kAllocation;
  const Submission s = submission_of(gang_launch(1, false), settings, "/s").value();
  const Result<LibraryJob> job = library_job_of(s, kBase);
  ASSERT_FALSE(job.ok());
  EXPECT_NE(job.status().message().find("salloc"), std::string::npos) << job.status().message();
}

TEST(LibraryTransportErrors, SlurmsRefusalsAreTheJobsFaultAndTheRestAreTheWays) {
  EXPECT_TRUE(slurm_error_is_refusal(ESLURM_INVALID_ACCOUNT));
  EXPECT_TRUE(slurm_error_is_refusal(ESLURM_REQUESTED_NODE_CONFIG_UNAVAILABLE));
  EXPECT_TRUE(slurm_error_is_refusal(ESLURM_MISSING_TIME_LIMIT)) << "a job-submit refusal";
  EXPECT_FALSE(slurm_error_is_refusal(ESLURM_ERROR_ON_DESC_TO_RECORD_COPY)) << "sbatch retries";
  EXPECT_FALSE(slurm_error_is_refusal(ESLURM_NODES_BUSY)) << "sbatch retries";
  EXPECT_FALSE(slurm_error_is_refusal(SLURM_COMMUNICATIONS_CONNECTION_ERROR));
  EXPECT_FALSE(slurm_error_is_refusal(SLURM_PROTOCOL_SOCKET_IMPL_TIMEOUT));
  EXPECT_FALSE(slurm_error_is_refusal(ESLURM_AUTH_CRED_INVALID));
  EXPECT_FALSE(slurm_error_is_refusal(EAGAIN));
}

}  // namespace
}  // namespace allot::slurm
