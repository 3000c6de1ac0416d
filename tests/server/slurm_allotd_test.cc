// allotd on a real Slurm (`allotd --backend slurm`; the ctest fixture
// `slurm`: four emulated nodes, h100 on node1-2, a100 on node3-4): the policy
// is carried into Slurm's accounting when applied; an admitted workload runs
// as a Slurm job under its team's account; borrowed work is preempted (its
// job cancelled) when its owner reclaims; a node Slurm reports DOWN has its
// work requeued elsewhere; an allotd restart adopts the job still in Slurm
// instead of submitting it again; jobs run as the team's Unix account; an
// orphaned job is cancelled; a slurmctld restart loses nothing; describe,
// get -o wide and get nodes show Slurm's view beside allot's (metering:
// slurm_metering_test.cc; the fixture: slurm_allotd_fixture.h).
#include <algorithm>
#include <array>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "slurm_allotd_fixture.h"

namespace allot::server_test {
namespace {

// Item 5 of issue 13: the workload's Slurm job (id, state, reason, node list
// from the executor's batched poll) in the API's status.backend, in `allot
// describe workload` and `allot get workloads -o wide`; Slurm's node state
// in `allot get nodes` and `allot describe node`: each checked against what
// squeue and scontrol say.
TEST_F(SlurmAllotdTest, DescribeAndWideListingsShowSlurmsViewAsSqueueDoes) {
  submit("sa-research", "viewed", {"sleep 300", 1, 1, "low"});
  const nlohmann::json running = wait_phase("sa-research", "viewed", "Running");
  // squeue's own view of the job, by allot's job name.
  std::string id;
  std::string nodes;
  eventually(
      [&] {
        const std::string line =
            sh({"squeue", "-h", "-n", job_name(running), "-t", "RUNNING", "-o", "%i|%N"}).out;
        id = line.substr(0, line.find('|'));
        nodes =
            line.empty() ? "" : line.substr(line.find('|') + 1, line.find('\n') - id.size() - 1);
        return !line.empty();
      },
      std::chrono::seconds(30), std::chrono::milliseconds(200));
  ASSERT_FALSE(id.empty());
  ASSERT_EQ(nodes, node_of(running)) << "Slurm runs it where allot placed it";

  const nlohmann::json backend = workload("sa-research", "viewed")["status"]["backend"];
  EXPECT_EQ(backend["kind"], "slurm");
  EXPECT_EQ(backend["jobId"], id);
  EXPECT_EQ(backend["state"], "RUNNING");
  EXPECT_EQ(backend["reason"], "None");
  EXPECT_EQ(backend["nodes"], nodes);

  const auto [described_code, described] = allot("describe workload viewed -n sa-research");
  ASSERT_EQ(described_code, 0) << described;
  EXPECT_NE(described.find("Slurm:\n"
                           "  Job id:  " +
                           id +
                           "\n"
                           "  State:   RUNNING\n"
                           "  Reason:  None\n"
                           "  Nodes:   " +
                           nodes + "\n"),
            std::string::npos)
      << described;

  const auto [wide_code, wide] = allot("get workloads -n sa-research -o wide");
  ASSERT_EQ(wide_code, 0) << wide;
  EXPECT_NE(wide.substr(0, wide.find('\n')).find("JOBID"), std::string::npos) << wide;
  const std::string row = row_of(wide, "viewed");
  EXPECT_EQ(row.substr(row.find_last_of(' ') + 1), id) << wide;

  // Slurm's state of the job's node (MIXED: one of its GPUs is taken), as
  // scontrol says it, beside allot's Ready; read by the health rounds.
  const auto slurm_state = [&] {
    const std::string shown = sh({"scontrol", "-o", "show", "node", nodes}).out;
    const size_t at = shown.find(" State=") + 7;
    return shown.substr(at, shown.find(' ', at) - at);
  };
  std::string table;
  EXPECT_TRUE(eventually(
      [&] {
        table = allot("get nodes").second;
        const std::string state = slurm_state();
        return row_of(table, nodes).find("  Ready  ") != std::string::npos &&
               row_of(table, nodes).ends_with("  " + state);
      },
      std::chrono::seconds(30), std::chrono::milliseconds(300)))
      << table << slurm_state();
  EXPECT_NE(table.substr(0, table.find('\n')).find("BACKEND"), std::string::npos) << table;
  const auto [node_code, node_text] = allot("describe node " + nodes);
  ASSERT_EQ(node_code, 0) << node_text;
  EXPECT_NE(node_text.find("Backend state:"), std::string::npos) << node_text;
}

// The job id is recorded when sbatch answers, not when a pod starts: a
// workload that allot admitted and Slurm holds pending (jobs submitted
// around allot hold every h100 GPU) lists its job id in `get workloads -o
// wide` and status.backend, as squeue says it; the same job then runs.
TEST_F(SlurmAllotdTest, APendingJobsIdIsListedWhileSlurmHoldsItPending) {
  const std::map<std::string, std::string> blockers = hold_h100_nodes_running_outside_allot();
  ASSERT_EQ(blockers.size(), 2u);

  submit("sa-research", "waiting", {"echo ran", 1, 1, "low"});
  const nlohmann::json admitted = wait_for_job_id("sa-research", "waiting");
  EXPECT_EQ(phase_of(admitted), "Admitted") << admitted;
  const std::string id = admitted["status"]["backend"]["jobId"];
  const std::string squeued =
      sh({"squeue", "-h", "-n", job_name(admitted), "-t", "PENDING", "-o", "%i"}).out;
  EXPECT_EQ(squeued, id + "\n") << "Slurm holds that job pending";

  const auto [wide_code, wide] = allot("get workloads -n sa-research -o wide");
  ASSERT_EQ(wide_code, 0) << wide;
  const std::string row = row_of(wide, "waiting");
  EXPECT_NE(row.find("Admitted"), std::string::npos) << wide;
  EXPECT_EQ(row.substr(row.find_last_of(' ') + 1), id) << wide;

  for (const auto& [node, blocker] : blockers) ASSERT_TRUE(sh({"scancel", blocker}).succeeded());
  const nlohmann::json done = wait_phase("sa-research", "waiting", "Succeeded");
  EXPECT_EQ(done["status"]["backend"]["jobId"], id) << "the same job ran";
}

// Slurm's NodeList against allot's placement, end to end: allot's job waits
// behind jobs around allot on both h100 nodes; an admin moves it to the node
// allot did not choose and frees that one. It runs there and is kept
// (Succeeded, never requeued); status.backend names allot's placement beside
// Slurm's node, and one PlacedElsewhere Warning is recorded.
TEST_F(SlurmAllotdTest, AJobSlurmRunsElsewhereIsKeptAndRecordedAsPlacedElsewhere) {
  std::map<std::string, std::string> blockers = hold_h100_nodes_outside_allot();
  ASSERT_EQ(blockers.size(), 2u);
  submit("sa-research", "moved", {"echo ran on $SLURMD_NODENAME", 1, 1, "low"});
  const nlohmann::json admitted = wait_until(
      "sa-research", "moved",
      [](const nlohmann::json& w) {
        return w["status"].contains("backend") &&
               w["status"]["backend"].value("state", std::string()) == "PENDING";
      },
      "its job pending in Slurm");
  const std::string placed = node_of(admitted);
  const std::string other = placed == "node1" ? "node2" : "node1";
  const std::string id = admitted["status"]["backend"]["jobId"];

  ASSERT_TRUE(sh({"scontrol", "update", "JobId=" + id, "ReqNodeList=" + other}).succeeded());
  ASSERT_TRUE(sh({"scancel", blockers[other]}).succeeded());
  const nlohmann::json done = wait_phase("sa-research", "moved", "Succeeded");

  EXPECT_EQ(done["status"]["backend"]["jobId"], id) << "the same job, not requeued";
  EXPECT_EQ(done["status"]["backend"]["nodes"], other) << done;
  EXPECT_EQ(done["status"]["backend"]["placedNodes"], placed) << done;
  const std::vector<std::string> reasons = event_reasons("sa-research", "moved");
  EXPECT_EQ(std::count(reasons.begin(), reasons.end(), "PlacedElsewhere"), 1);
  EXPECT_EQ(std::count(reasons.begin(), reasons.end(), "Evicted"), 0);
}

TEST_F(SlurmAllotdTest, AWorkloadRunsAsASlurmJobUnderItsTeamsAccount) {
  submit("sa-research", "hello",
         {"echo CVD=$CUDA_VISIBLE_DEVICES acct=$SLURM_JOB_ACCOUNT job=$SLURM_JOB_NAME", 2});

  const nlohmann::json done = wait_phase("sa-research", "hello", "Succeeded");

  const std::string text = wait_log("sa-research", "hello", "acct=");
  EXPECT_EQ(text, "CVD=0,1 acct=sa-research job=" + job_name(done) + "\n");
}

// The job runs as the team's Unix account (or its submitter's within the
// team), never as allotd's root: its log is its own (0600), and another
// team's job cannot read it.
TEST_F(SlurmAllotdTest, AJobRunsAsItsTeamsUnixAccountAndAnotherTeamCannotReadItsFiles) {
  const nlohmann::json secret = submit(
      "sa-research", "secret", {"echo user=$(id -un) uid=$(id -u) HOME=$HOME; env; echo s3cr3t"});
  wait_phase("sa-research", "secret", "Succeeded");
  const std::string text = wait_log("sa-research", "secret", "s3cr3t");
  EXPECT_EQ(text.rfind("user=allot-sa-research", 0), 0u) << text;
  EXPECT_EQ(text.find("uid=0 "), std::string::npos) << text;
  EXPECT_EQ(text.find("HOME=/root"), std::string::npos) << "allotd's environment stays out";
  // allotd was started with the test's environment: none of it reaches the job.
  ASSERT_NE(std::getenv("ALLOT_TEST_SLURM_CONF"), nullptr);
  EXPECT_EQ(text.find("ALLOT_TEST_SLURM_CONF"), std::string::npos) << text;
  const std::string path = (allotd_.data_dir() / "slurm" /
                            (std::to_string(secret["metadata"]["uid"].get<uint64_t>()) + "-0.log"))
                               .string();
  struct stat info {};
  ASSERT_EQ(::stat(path.c_str(), &info), 0) << path;
  EXPECT_NE(info.st_uid, 0u);
  EXPECT_EQ(info.st_mode & 0777, 0600u);

  submit("sa-prod", "reader",
         {"echo user=$(id -un); cat " + shell_quote(path) + " || echo DENIED", 1, 1, "high"});
  wait_phase("sa-prod", "reader", "Succeeded");
  const std::string read = wait_log("sa-prod", "reader", "DENIED");
  EXPECT_EQ(read.rfind("user=allot-sa-prod", 0), 0u) << read;
  EXPECT_NE(read.find("Permission denied"), std::string::npos) << read;
  EXPECT_EQ(read.find("s3cr3t"), std::string::npos) << read;
}

// slurmctld resolves a Slurm user's uid once. A Unix account deleted and made
// again under the same name gets another uid (the harness deletes each data
// folder's accounts; other tests take uids meanwhile): Slurm's stale user
// refused every sbatch --uid ("Invalid account"), so every job failed 127.
// allotd sees the other uid in scontrol's view and adds the user again.
TEST_F(SlurmAllotdTest, ASlurmUserLeftWithAnotherUidIsAssociatedAgainAndTheJobRuns) {
  const std::string user = "allot-sa-research_admin";  // the submitter "admin" in sa-research
  // A killed run's account (this name, uid kTestUid) was removed at SetUp.
  ASSERT_EQ(
      std::system(("useradd -r -M -u " + std::to_string(kTestUid) + " -s /usr/sbin/nologin " + user)
                      .c_str()),
      0);
  (void)sh({"sacctmgr", "-i", "delete", "user", user});
  ASSERT_TRUE(sh({"sacctmgr", "-i", "add", "user", user, "Account=sa-research"}).succeeded());
  const auto shown = [&] {
    return sh({"scontrol", "show", "assoc_mgr", "users=" + user, "accounts=sa-research",
               "flags=assoc"})
        .out;
  };
  EXPECT_TRUE(eventually(
      [&] {
        return shown().find(user + "(" + std::to_string(kTestUid) + ")") != std::string::npos;
      },
      std::chrono::seconds(30), std::chrono::milliseconds(200)))
      << shown();
  ASSERT_EQ(std::system(("userdel " + user).c_str()), 0);

  submit("sa-research", "again", {"echo uid=$(id -u)", 1});
  wait_phase("sa-research", "again", "Succeeded");

  const std::string text = wait_log("sa-research", "again", "uid=");
  EXPECT_EQ(text.find("uid=" + std::to_string(kTestUid)), std::string::npos) << text;
  EXPECT_NE(
      shown().find(user + "(" + text.substr(text.find("uid=") + 4, text.find('\n') - 4) + ")"),
      std::string::npos)
      << shown() << text;
}

// A job with this allotd's name prefix that allotd does not know (made by
// hand here; in life: its workload deleted while allotd was down) is
// cancelled and logged.
TEST_F(SlurmAllotdTest, AJobWithAllotsPrefixThatAllotDoesNotKnowIsCancelledAndLogged) {
  nlohmann::json fake;
  fake["metadata"]["uid"] = uint64_t{987654};
  const std::string name = job_name(fake);
  const slurm::CommandResult made =
      sh({"sbatch", "--parsable", "--job-name=" + name, "--account=sa-research", "--partition=gpu",
          "--mem=100", "--output=/dev/null", "--wrap", "sleep 300"});
  ASSERT_TRUE(made.succeeded()) << made.err;
  const std::string id = made.out.substr(0, made.out.find_first_of(";\n"));

  eventually(
      [&] {
        return sh({"sacct", "-n", "-X", "-P", "-j", id, "-o", "State"}).out.find("CANCELLED") !=
               std::string::npos;
      },
      std::chrono::seconds(30), std::chrono::milliseconds(200));
  EXPECT_NE(sh({"sacct", "-n", "-X", "-P", "-j", id, "-o", "State"}).out.find("CANCELLED"),
            std::string::npos);
  EXPECT_NE(allotd_.stderr_text().find("cancelling an orphaned Slurm job"), std::string::npos);
}

// slurmctld goes away and comes back while a job runs: allot keeps the
// workload running (a failed poll is not a lost job), submits nothing
// twice, and new work still runs.
TEST_F(SlurmAllotdTest, ASlurmctldRestartLosesNothingAndSubmitsNothingTwice) {
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

// The borrower's gang starts at once: Slurm's main scheduling loop runs every
// second (scripts/slurm.sh; the default 60 s left a job that could not start
// when submitted waiting that long).
// The owner runs once the borrower's job has ended: its grace (2 s) fits in
// KillWait, so allot cancels it at once (SIGTERM, then SIGKILL after KillWait
// for a process that outlives it: a gang's srun cancelled while it launched its
// step did in CI, for Slurm's default 30 s). With the tests' KillWait (5 s,
// scripts/slurm.sh) plus a poll (200 ms) and a cycle, wait_phase's 30 s keeps a
// margin of 5 x under load.
TEST_F(SlurmAllotdTest, BorrowedWorkIsPreemptedInSlurmWhenItsOwnerReclaims) {
  ASSERT_LE(kill_wait(), Duration::seconds(5)) << "the waits below assume the tests' KillWait";
  ASSERT_GT(kill_wait(), Duration()) << "KillWait read from scontrol show config";
  submit("sa-research", "borrower", {"sleep 300", 8, 2, "low"});
  const nlohmann::json running = wait_phase("sa-research", "borrower", "Running");
  ASSERT_NE(sh({"squeue", "-h", "-A", "sa-research", "-t", "RUNNING", "-o", "%i"}).out, "");

  submit("sa-prod", "owner", {"sleep 300", 8, 1, "high"});
  wait_phase("sa-prod", "owner", "Running");

  EXPECT_NE(phase_of(workload("sa-research", "borrower")), "Running");
  const std::vector<std::string> events = wait_event("sa-research", "borrower", "Preempted");
  const std::string recorded = jobs_once_recorded(running, "CANCELLED");
  EXPECT_NE(recorded.find("CANCELLED"), std::string::npos) << recorded;
  EXPECT_EQ(sh({"squeue", "-h", "-A", "sa-prod", "-t", "RUNNING", "-o", "%N"}).out.empty(), false);
}

// Slurm ends the job NODE_FAIL (allot submits with --no-requeue; Slurm's own
// requeue left it pending, pinned to the downed node, while allot still saw
// it running); its pod is reported lost and the workload requeued, then placed
// on a node that is up (the node stays DOWN: ReturnToService=1).
TEST_F(SlurmAllotdTest, ANodeSlurmReportsDownHasItsWorkRequeuedElsewhere) {
  submit("sa-research", "survivor", {"sleep 300", 1, 1, "low"});
  const nlohmann::json first = wait_phase("sa-research", "survivor", "Running");
  const std::string node = node_of(first);

  ASSERT_TRUE(sh({"scontrol", "update", "nodename=" + node, "state=DOWN", "reason=allot-test"})
                  .succeeded());
  const nlohmann::json again = wait_until(
      "sa-research", "survivor",
      [&](const nlohmann::json& w) { return phase_of(w) == "Running" && node_of(w) != node; },
      "running again on another node");

  EXPECT_NE(node_of(again), node);
  const std::vector<std::string> events = event_reasons("sa-research", "survivor");
  EXPECT_NE(std::find(events.begin(), events.end(), "Evicted"), events.end());
}

TEST_F(SlurmAllotdTest, AnAllotdRestartAdoptsTheJobInsteadOfSubmittingItAgain) {
  submit("sa-research", "steady", {"sleep 300", 1, 1, "low"});
  const nlohmann::json running = wait_phase("sa-research", "steady", "Running");
  const std::string before = jobs_once_recorded(running, "RUNNING");

  ASSERT_EQ(allotd_.restart(), "");
  wait_phase("sa-research", "steady", "Running");

  EXPECT_EQ(jobs_of(running), before) << "one job, still the same";
  EXPECT_NE(before.find("RUNNING"), std::string::npos) << before;
}

TEST_F(SlurmNodesFromSlurmTest, AClusterWithoutNodePoolsRunsOnSlurmsNodesAndACordonDrainsOne) {
  ASSERT_EQ(policy_text().find("NodePool"), std::string::npos) << policy_text();
  nlohmann::json nodes;
  EXPECT_TRUE(eventually(
      [&] {
        nodes = api_.get("/api/v1/nodes").json["items"];
        return nodes.size() == 4;
      },
      std::chrono::seconds(30), std::chrono::milliseconds(200)))
      << nodes;
  ASSERT_EQ(nodes.size(), 4u) << nodes;
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(nodes[i]["name"], "node" + std::to_string(i + 1)) << nodes[i];
    EXPECT_EQ(nodes[i]["flavor"], i < 2 ? "h100" : "a100") << "Slurm's GRES type";
    EXPECT_EQ(nodes[i]["capacity"]["gpu"], "8") << nodes[i];
  }

  submit("sa-research", "on-slurm-nodes", {"echo ran-on=$SLURMD_NODENAME", 1});
  const nlohmann::json done = wait_phase("sa-research", "on-slurm-nodes", "Succeeded");
  const std::string node = node_of(done);
  EXPECT_TRUE(node == "node1" || node == "node2") << "an h100 node: " << node;
  EXPECT_EQ(wait_log("sa-research", "on-slurm-nodes", "ran-on="), "ran-on=" + node + "\n");

  const Reply cordoned = api_.post("/api/v1/nodes/node3/cordon");
  ASSERT_EQ(cordoned.status, 200) << cordoned.describe();
  const std::string shown = sh({"scontrol", "-o", "show", "node", "node3"}).out;
  EXPECT_NE(shown.find("DRAIN"), std::string::npos) << shown;
  EXPECT_NE(shown.find("Reason=allot: cordoned"), std::string::npos) << shown;
}

}  // namespace
}  // namespace allot::server_test
