// allotd on a real Slurm with `--slurm-submit allocation` (each job asked as
// a salloc allocation running the workload as an srun step; slurm_jobs.h):
// the job is allocated inside slurmctld's allocation RPC (its log says
// `_slurm_rpc_allocate_resources JobId=N NodeList=...`, where a batch job
// waits for a later scheduling pass), runs as the team's Unix account with
// the GPUs Slurm gave it and without allotd's environment, and a slurmctld
// restart loses nothing (salloc and srun reconnect; one job, still running).
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "slurm_allotd_fixture.h"

namespace allot::server_test {
namespace {

class SlurmAllocationAllotdTest : public SlurmAllotdTest {
 protected:
  std::vector<std::string> allotd_flags() override {
    std::vector<std::string> flags = SlurmAllotdTest::allotd_flags();
    flags.insert(flags.end(), {"--slurm-submit", "allocation"});
    return flags;
  }
  static std::string controller_log() {
    std::ifstream in(slurm_dir() + "/log/slurmctld.log");
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  }
};

TEST_F(SlurmAllocationAllotdTest, AJobIsAllocatedAtSubmitAndRunsAsItsTeamsUnixAccount) {
  submit("sa-research", "alloc",
         {"echo user=$(id -un) uid=$(id -u) HOME=$HOME CVD=$CUDA_VISIBLE_DEVICES "
          "acct=$SLURM_JOB_ACCOUNT",
          2});

  const nlohmann::json done = wait_phase("sa-research", "alloc", "Succeeded");

  const std::string text = wait_log("sa-research", "alloc", "acct=");
  EXPECT_EQ(text.rfind("user=allot-sa-research", 0), 0u) << text;
  EXPECT_EQ(text.find("uid=0 "), std::string::npos) << text;
  EXPECT_EQ(text.find("HOME=/root"), std::string::npos) << "allotd's environment stays out";
  EXPECT_NE(text.find("CVD=0,1 acct=sa-research"), std::string::npos) << text;
  // slurmdbd records the job a moment after slurmctld ends it.
  const std::string recorded = jobs_once_recorded(done, "COMPLETED");
  const std::string id = recorded.substr(0, recorded.find('|'));
  ASSERT_FALSE(id.empty()) << recorded;
  EXPECT_NE(controller_log().find("_slurm_rpc_allocate_resources JobId=" + id + " NodeList="),
            std::string::npos)
      << "slurmctld allocated job " << id << " inside the submission's RPC";
}

// An allocation Slurm queues (both h100 nodes held by jobs submitted around
// allot) runs as the team's account once the nodes free: salloc, the owner's
// own process, decodes the grant (as root with --uid it could not, and
// slurmctld killed the job).
TEST_F(SlurmAllocationAllotdTest, AnAllocationSlurmQueuesRunsOnceItsNodeFrees) {
  const std::map<std::string, std::string> blockers = hold_h100_nodes_running_outside_allot();
  ASSERT_EQ(blockers.size(), 2u);
  submit("sa-research", "queued", {"echo user=$(id -un) queued-ran", 1, 1, "low"});
  const nlohmann::json admitted = wait_for_job_id("sa-research", "queued");
  const std::string id = admitted["status"]["backend"]["jobId"];
  EXPECT_EQ(sh({"squeue", "-h", "-n", job_name(admitted), "-t", "PENDING", "-o", "%i"}).out,
            id + "\n")
      << "Slurm holds the allocation pending";

  for (const auto& [node, blocker] : blockers) ASSERT_TRUE(sh({"scancel", blocker}).succeeded());
  const nlohmann::json done = wait_phase("sa-research", "queued", "Succeeded");

  EXPECT_EQ(done["status"]["backend"]["jobId"], id) << "the same job ran";
  const std::string text = wait_log("sa-research", "queued", "queued-ran");
  EXPECT_EQ(text.rfind("user=allot-sa-research", 0), 0u) << text;
}

TEST_F(SlurmAllocationAllotdTest, ASlurmctldRestartLosesNothingAndSubmitsNothingTwice) {
  submit("sa-research", "through", {"sleep 300", 1, 1, "low"});
  const nlohmann::json running = wait_phase("sa-research", "through", "Running");
  const std::string before = jobs_once_recorded(running, "RUNNING");

  const Result<slurm::CommandResult> restarted =
      runner_.run({slurm_script(), "restart-controller", slurm_dir()});
  ASSERT_TRUE(restarted.ok()) << restarted.status().to_string();
  ASSERT_TRUE(restarted->succeeded()) << restarted->out << restarted->err;
  submit("sa-research", "after", {"echo after-restart", 1, 1, "low"});
  wait_phase("sa-research", "after", "Succeeded");

  EXPECT_EQ(phase_of(workload("sa-research", "through")), "Running");
  EXPECT_EQ(jobs_of(running), before) << "one job, still the same";
  const std::vector<std::string> events = event_reasons("sa-research", "through");
  for (const char* reason : {"PodLost", "Evicted", "PodFailed", "Preempted"}) {
    EXPECT_EQ(std::find(events.begin(), events.end(), reason), events.end()) << reason;
  }
}

}  // namespace
}  // namespace allot::server_test
