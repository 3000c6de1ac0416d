// slurm_jobs.h: an admitted workload as one sbatch job (placement, account,
// QoS, typed GRES, time limit), and what squeue and sacct say of allot's jobs.
#include "backends/slurm/slurm_jobs.h"

#include <algorithm>

#include <gtest/gtest.h>

namespace allot::slurm {
namespace {

WorkloadLaunch launch_of(std::vector<std::string> nodes, int64_t gpus) {
  WorkloadLaunch launch;
  launch.workload = WorkloadId(42);
  launch.name = "train";
  launch.namespace_name = "vision";
  launch.team = TeamId("vision");
  launch.user = "alice";
  launch.command = {"python", "it's.py"};
  launch.env = {{"EPOCHS", "3"}};
  launch.flavor = "h100";
  launch.priority_class = "prod";
  launch.max_runtime = Duration::seconds(90);
  int32_t index = 0;
  for (const std::string& node : nodes) {
    launch.pods.push_back(
        {index++, NodeId(node), {}, ResourceVector(gpus, 2500, int64_t{3} << 30)});
  }
  return launch;
}

bool has(const std::vector<std::string>& argv, const std::string& arg) {
  return std::find(argv.begin(), argv.end(), arg) != argv.end();
}

TEST(SlurmJobs, OnePodIsOneTaskOnItsNodeUnderTheTeamsAccountAndClassQos) {
  const Submission s =
      submission_of(launch_of({"node1"}, 2), {"allot-", "gpu", "/logs"}, "/logs/42.sbatch").value();

  EXPECT_EQ(s.argv.front(), "sbatch");
  EXPECT_EQ(s.argv.back(), "/logs/42.sbatch");
  for (const char* arg :
       {"--job-name=allot-42", "--account=vision", "--qos=prod", "--partition=gpu", "--nodes=1",
        "--ntasks=1", "--nodelist=node1", "--gres=gpu:h100:2", "--cpus-per-task=3", "--mem=3072",
        "--time=3", "--output=/logs/42-0.log", "--no-requeue"}) {
    EXPECT_TRUE(has(s.argv, arg)) << arg;
  }
  EXPECT_NE(s.script.find("export EPOCHS='3'\n"), std::string::npos) << s.script;
  EXPECT_NE(s.script.find("export ALLOT_USER='alice'\n"), std::string::npos);
  EXPECT_NE(s.script.find("exec 'python' 'it'\\''s.py'\n"), std::string::npos) << s.script;
}

TEST(SlurmJobs, AHandedOverJobWaitsForTheJobsItFollowsOnItsPlacement) {
  const Submission s = submission_of(launch_of({"node1"}, 2), {"allot-", "gpu", "/logs"},
                                     "/logs/42.sbatch", std::nullopt, {"17", "18"})
                           .value();
  EXPECT_TRUE(has(s.argv, "--dependency=afterany:17:18"));
  EXPECT_TRUE(has(s.argv, "--nodelist=node1"));
  EXPECT_EQ(s.argv.back(), "/logs/42.sbatch");
  const Submission plain =
      submission_of(launch_of({"node1"}, 2), {"allot-", "gpu", "/logs"}, "/s").value();
  EXPECT_FALSE(std::any_of(plain.argv.begin(), plain.argv.end(),
                           [](const std::string& a) { return a.starts_with("--dependency"); }));
}

TEST(SlurmJobs, AGangIsOneJobOverItsNodesWithOneTaskPerPodRunBySrun) {
  const Submission s =
      submission_of(launch_of({"node1", "node2"}, 4), {"allot-", "", "/logs"}, "/s").value();

  for (const char* arg : {"--nodes=2", "--ntasks=2", "--ntasks-per-node=1",
                          "--nodelist=node1,node2", "--gres=gpu:h100:4", "--mem=3072"}) {
    EXPECT_TRUE(has(s.argv, arg)) << arg;
  }
  EXPECT_FALSE(std::any_of(s.argv.begin(), s.argv.end(),
                           [](const std::string& a) { return a.starts_with("--partition"); }));
  EXPECT_NE(s.script.find("exec srun --kill-on-bad-exit=1 --open-mode=append "
                          "--output='/logs/42-%t.log' 'python'"),
            std::string::npos)
      << s.script;
}

TEST(SlurmJobs, WithAnOwnerTheJobRunsAsItsAccountWithoutAllotdsEnvironment) {
  const JobOwner owner{"allot-vision_alice", 1234, 567, "/data/teams/vision/homes/a"};

  const Submission s =
      submission_of(launch_of({"node1", "node2"}, 1), {"allot-", "", "/logs"}, "/s", owner).value();

  for (const char* arg : {"--uid=1234", "--gid=567", "--export=ALL"}) {
    EXPECT_TRUE(has(s.argv, arg)) << arg;
  }
  EXPECT_FALSE(has(s.argv, "--export=NONE")) << "NONE makes slurmd load a login environment";
  for (const char* line :
       {"export USER='allot-vision_alice'\n", "export LOGNAME='allot-vision_alice'\n",
        "export HOME='/data/teams/vision/homes/a'\n", "export SLURM_EXPORT_ENV='ALL'\n",
        "export PATH='/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'\n"}) {
    EXPECT_NE(s.script.find(line), std::string::npos) << line << s.script;
  }
  EXPECT_EQ(job_log_paths(launch_of({"node1", "node2"}, 1), "/logs"),
            (std::vector<std::string>{"/logs/42-0.log", "/logs/42-1.log", "/logs/42-batch.log"}));
}

TEST(SlurmJobs, WithoutAnOwnerTheJobRunsAsWhoeverRunsSbatch) {
  const Submission s = submission_of(launch_of({"node1"}, 1), {}, "/s").value();

  EXPECT_FALSE(std::any_of(s.argv.begin(), s.argv.end(), [](const std::string& a) {
    return a.starts_with("--uid") || a.starts_with("--export");
  }));
  EXPECT_EQ(s.script.find("export HOME="), std::string::npos);
}

TEST(SlurmJobs, NoMaxRuntimeIsNoTimeLimitAndNoFlavorIsUntypedGres) {
  WorkloadLaunch launch = launch_of({"n1"}, 1);
  launch.max_runtime.reset();
  launch.flavor.clear();
  launch.priority_class.clear();
  launch.pods[0].resources = ResourceVector(1, 0, 0);

  const Submission s = submission_of(launch, {}, "/s").value();

  EXPECT_TRUE(has(s.argv, "--time=0"));
  EXPECT_TRUE(has(s.argv, "--gres=gpu:1"));
  EXPECT_TRUE(has(s.argv, "--mem=100")) << "a default that lets jobs share a node";
  EXPECT_FALSE(std::any_of(s.argv.begin(), s.argv.end(),
                           [](const std::string& a) { return a.starts_with("--qos"); }));
}

TEST(SlurmJobs, WithOneFlavorGpusAreAskedUntypedAsTheSyncLimitsThem) {
  SubmitSettings settings;
  settings.typed_gres = false;

  const Submission s = submission_of(launch_of({"n1"}, 2), settings, "/s").value();

  EXPECT_TRUE(has(s.argv, "--gres=gpu:2"));
}

TEST(SlurmJobs, AGangAskingDifferentThingsOfItsNodesIsRefused) {
  WorkloadLaunch launch = launch_of({"node1", "node1", "node2"}, 1);

  const Result<Submission> s = submission_of(launch, {}, "/s");

  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.status().message().find("Slurm asks the same of every node"), std::string::npos)
      << s.status().message();
}

TEST(SlurmJobs, JobNamesCarryTheWorkloadId) {
  EXPECT_EQ(job_name_of("allot-", WorkloadId(7)), "allot-7");
  EXPECT_EQ(workload_of_job_name("allot-", "allot-7"), WorkloadId(7));
  EXPECT_EQ(workload_of_job_name("allot-", "allot-x"), std::nullopt);
  EXPECT_EQ(workload_of_job_name("allot-", "mine-7"), std::nullopt);
  EXPECT_EQ(workload_of_job_name("allot-", "allot-0"), std::nullopt);
}

TEST(SlurmJobs, SqueueLinesAreReadWithTheirWaitStatus) {
  const auto jobs = parse_squeue(
                        "1|allot-7|FAILED|NonZeroExitCode|node1|768\n"
                        "2|allot-8|PENDING|Resources||0\n")
                        .value();

  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0], (SlurmJob{"1", "allot-7", "FAILED", "NonZeroExitCode", "node1", 768}));
  EXPECT_EQ(exit_of(jobs[0]).exit_code, 3);
  EXPECT_EQ(jobs[1].reason, "Resources");
  EXPECT_FALSE(parse_squeue("1|allot-7|RUNNING\n").ok());
}

TEST(SlurmJobs, SacctExitCodesAndLostJobs) {
  const auto jobs = parse_sacct("5|CANCELLED by 0|0:15\n6|NODE_FAIL|0:0\n7|TIMEOUT|0:0\n").value();

  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].state, "CANCELLED");
  EXPECT_EQ(exit_of(jobs[0]).signal, 15);
  EXPECT_TRUE(exit_of(jobs[1]).lost);
  EXPECT_EQ(exit_of(jobs[2]).signal, 9) << "Slurm ended it: not a success";
  EXPECT_FALSE(parse_sacct("5|COMPLETED\n").ok());
}

TEST(SlurmJobs, KillWaitIsReadFromScontrolShowConfig) {
  EXPECT_EQ(kill_wait_of("JobRequeue              = 1\nKillWait                = 30 sec\n"),
            Duration::seconds(30));
  EXPECT_EQ(kill_wait_of("JobRequeue = 1\n"), std::nullopt);
  EXPECT_EQ(kill_wait_of("KillWait = soon\n"), std::nullopt);
}

TEST(SlurmJobs, StatesThatStartedAndEnded) {
  EXPECT_TRUE(is_started_job_state("RUNNING"));
  EXPECT_FALSE(is_started_job_state("PENDING"));
  EXPECT_TRUE(is_final_job_state("COMPLETED"));
  EXPECT_FALSE(is_final_job_state("COMPLETING"));
  EXPECT_TRUE(is_requeued_job_state("PENDING"));
  EXPECT_TRUE(is_requeued_job_state("REQUEUED"));
  EXPECT_FALSE(is_requeued_job_state("RUNNING"));
}

TEST(SlurmJobs, SacctsSubmissionTimesAreReadAsEpochSeconds) {
  EXPECT_EQ(parse_sacct_submitted("17|1796000000\n18|1796000005\n").value(),
            (std::vector<SubmittedJob>{{"17", 1796000000}, {"18", 1796000005}}));
  EXPECT_TRUE(parse_sacct_submitted("").value().empty());
  const Result<std::vector<SubmittedJob>> local_time =
      parse_sacct_submitted("17|2026-12-07T08:15:29\n");
  ASSERT_FALSE(local_time.ok()) << "SLURM_TIME_FORMAT=%s was not applied";
  EXPECT_NE(local_time.status().message().find("17|2026-12-07T08:15:29"), std::string::npos);
}

}  // namespace
}  // namespace allot::slurm
