// allotd on a real Slurm whose Cluster names slurmrestd (spec.slurm.rest;
// the ctest fixture `slurm` starts slurmrestd with JWT auth): the team's job
// is submitted through slurmrestd (with a token allotd mints for the team's
// Unix account) and runs with the GPUs Slurm gave it; an allotd restart
// adopts the job; a Cluster naming a slurmrestd that cannot be reached is
// refused at apply with nothing carried into Slurm.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "slurm_allotd_fixture.h"

namespace allot::server_test {
namespace {

std::string rest_allotd_url() {
  std::ifstream in(slurm_dir() + "/env");
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("SLURMRESTD_URL=")) return line.substr(15);
  }
  return "";
}

// kSlurmPolicy with the Cluster's spec.slurm.rest = `url`.
std::string policy_with_rest(const std::string& url) {
  std::string text = kSlurmPolicy;
  const std::string plain = "slurm: {clusterName: allot, partition: gpu}";
  text.replace(text.find(plain), plain.size(),
               "slurm: {clusterName: allot, partition: gpu, rest: \"" + url + "\"}");
  return text;
}

class SlurmRestAllotdTest : public SlurmAllotdTest {
 protected:
  void SetUp() override {
    url_ = rest_allotd_url();
    ASSERT_FALSE(url_.empty()) << "the `slurm` fixture starts slurmrestd (ALLOT_SLURM_REST=1)";
    // allotd's token, as an operator mints it (scontrol prints SLURM_JWT=...).
    const slurm::CommandResult minted = sh({"scontrol", "token", "username=root", "lifespan=600"});
    ASSERT_TRUE(minted.succeeded()) << minted.err;
    token_file_ = std::filesystem::temp_directory_path() /
                  ("allot-slurm-rest-token-" + std::to_string(::getpid()));
    std::ofstream(token_file_) << minted.out;
    SlurmAllotdTest::SetUp();
  }
  void TearDown() override {
    SlurmAllotdTest::TearDown();
    std::filesystem::remove(token_file_);
  }
  std::string policy_text() override { return policy_with_rest(url_); }
  std::vector<std::string> allotd_flags() override {
    std::vector<std::string> flags = SlurmAllotdTest::allotd_flags();
    flags.insert(flags.end(), {"--slurm-rest-token-file", token_file_.string()});
    return flags;
  }

  std::string url_;
  std::filesystem::path token_file_;
};

TEST_F(SlurmRestAllotdTest, ATeamsGpuJobIsSubmittedThroughSlurmrestdAndRunsAsItsAccount) {
  submit("sa-research", "rested",
         {"echo CVD=$CUDA_VISIBLE_DEVICES acct=$SLURM_JOB_ACCOUNT user=$(id -un) "
          "node=$SLURMD_NODENAME; sleep 2",
          2});
  const nlohmann::json running = wait_phase("sa-research", "rested", "Running");
  // sbatch records the batch script's path (DATA/slurm/<id>.sbatch) as the
  // job's command; slurmrestd gets the script's text.
  std::string id = sh({"squeue", "-h", "-n", job_name(running), "-o", "%i"}).out;
  id = id.substr(0, id.find('\n'));
  const std::string shown = sh({"scontrol", "-o", "show", "job", id}).out;
  EXPECT_EQ(shown.find(".sbatch"), std::string::npos) << shown;
  // Pinned in one request by excluding every other node (no hold, no scontrol).
  EXPECT_NE(shown.find(" NodeList=" + node_of(running) + " "), std::string::npos)
      << "run where allot placed it: " << shown;
  EXPECT_EQ(shown.find("ExcNodeList=(null)"), std::string::npos) << shown;
  EXPECT_NE(shown.find("ReqNodeList=(null)"), std::string::npos) << "never placed by scontrol";

  const nlohmann::json done = wait_phase("sa-research", "rested", "Succeeded");
  const std::string text = wait_log("sa-research", "rested", "acct=");
  EXPECT_EQ(text.substr(0, text.find(" user=")), "CVD=0,1 acct=sa-research") << text;
  EXPECT_EQ(text.find("user=root"), std::string::npos) << "the team's account: " << text;
  EXPECT_NE(text.find("node=" + node_of(done)), std::string::npos) << text;
}

TEST_F(SlurmRestAllotdTest, AnAllotdRestartAdoptsTheJobThroughSlurmrestd) {
  submit("sa-research", "steady", {"sleep 300", 1, 1, "low"});
  const nlohmann::json running = wait_phase("sa-research", "steady", "Running");
  const std::string before = jobs_once_recorded(running, "RUNNING");

  ASSERT_EQ(allotd_.restart(), "");
  wait_phase("sa-research", "steady", "Running");

  EXPECT_EQ(jobs_of(running), before) << "one job, still the same";
}

TEST_F(SlurmRestAllotdTest, ASlurmrestdThatCannotBeReachedIsRefusedAtApplyAndNothingIsSynced) {
  std::string text = policy_with_rest("http://127.0.0.1:1");
  text +=
      "---\napiVersion: allot/v1\nkind: Team\nmetadata: {name: sa-late}\n"
      "spec:\n  cohort: sa-org\n  quota: [{flavor: h100, resources: {gpu: {nominal: 1}}}]\n";

  const Reply refused = api_.post("/api/v1/apply", text);

  EXPECT_EQ(refused.status, 409) << refused.describe();
  EXPECT_NE(refused.body.find("cannot reach slurmrestd at http://127.0.0.1:1"), std::string::npos)
      << refused.body;
  EXPECT_EQ(sh({"sacctmgr", "-n", "-P", "show", "account", "sa-late"}).out, "")
      << "nothing carried into Slurm";
}

}  // namespace
}  // namespace allot::server_test
