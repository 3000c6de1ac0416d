// The fixture of the tests of allotd on a real Slurm (slurm_allotd_test.cc,
// slurm_metering_test.cc): the ctest fixture `slurm` (four emulated nodes,
// h100 on node1-2, a100 on node3-4), a policy carried into Slurm's
// accounting at SetUp, Slurm's commands, the CLI, and helpers that read what
// Slurm says. SlurmNodesFromSlurmTest: the same policy without NodePools
// (the nodes are read from Slurm).
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "allotd_test.h"
#include "backends/slurm/command_runner.h"
#include "backends/slurm/slurm_jobs.h"
#include "shell_command.h"

namespace allot::server_test {

inline Timestamp wall_clock_now() {
  const auto now = std::chrono::system_clock::now().time_since_epoch();
  return Timestamp::from_millis(std::chrono::duration_cast<std::chrono::milliseconds>(now).count());
}

inline std::string slurm_conf() {
  const char* conf = std::getenv("ALLOT_TEST_SLURM_CONF");
  return conf == nullptr ? std::string() : conf;
}

// scripts/slurm.sh and the folder of the fixture's Slurm (DIR/etc/slurm.conf).
inline std::string slurm_script() { return std::string(ALLOT_SOURCE_DIR) + "/scripts/slurm.sh"; }
inline std::string slurm_dir() {
  return std::filesystem::path(slurm_conf()).parent_path().parent_path().string();
}

inline constexpr const char* kSlurmPolicy = R"(apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: h100}
---
apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: a100}
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: hpc}
spec: {backend: slurm, slurm: {clusterName: allot, partition: gpu}, scheduling: {cycle: 200ms}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: h100-nodes}
spec: {cluster: hpc, flavor: h100, count: 2, nodeNames: [node1, node2],
       resources: {gpu: 8, cpu: 16, memory: 64Gi}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: a100-nodes}
spec: {cluster: hpc, flavor: a100, count: 2, nodeNames: [node3, node4],
       resources: {gpu: 8, cpu: 16, memory: 64Gi}}
---
apiVersion: allot/v1
kind: Cohort
metadata: {name: sa-org}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: high}
spec: {value: 1000, preemptionPolicy: PreemptLowerPriority, preemptionGracePeriod: 2s}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: low}
spec: {value: 10, preemptionPolicy: PreemptLowerPriority, preemptionGracePeriod: 2s}
---
apiVersion: allot/v1
kind: Team
metadata: {name: sa-prod}
spec:
  cohort: sa-org
  quota: [{flavor: h100, resources: {gpu: {nominal: 8}}}]
  preemption: {reclaimWithinCohort: Any, withinTeam: LowerPriority}
---
apiVersion: allot/v1
kind: Team
metadata: {name: sa-research}
spec:
  cohort: sa-org
  quota: [{flavor: h100, resources: {gpu: {nominal: 8}}}]
)";

class SlurmAllotdTest : public AllotdTest {
 protected:
  void SetUp() override {
    ASSERT_FALSE(slurm_conf().empty())
        << "run under ctest: the `slurm` fixture sets ALLOT_TEST_SLURM_CONF";
    remove_leftover_test_user();  // before allotd makes the teams' accounts
    AllotdTest::SetUp();
    apply(policy_text());  // a re-apply of the same policy changes nothing in Slurm
    ASSERT_NE(sh({"sacctmgr", "-n", "-P", "show", "assoc", "where", "account=sa-research",
                  "user=root", "format=account"})
                  .out.find("sa-research"),
              std::string::npos)
        << "the policy was carried into Slurm's accounting";
  }
  void TearDown() override {
    AllotdTest::TearDown();
    // scancel takes one account (a list matches none: the jobs then ran on).
    for (const char* account : {"sa-prod", "sa-research"}) {
      (void)sh({"scancel", std::string("--account=") + account});
    }
    for (const char* node : {"node1", "node2", "node3", "node4"}) {
      (void)sh({"scontrol", "update", std::string("nodename=") + node, "state=RESUME"});
    }
    // The next test needs the nodes free of cancelled jobs.
    eventually(
        [&] {
          return sh({"squeue", "-h", "-A", "sa-prod,sa-research"}).out.empty();
        },
        std::chrono::seconds(60), std::chrono::milliseconds(200));
  }
  virtual std::string policy_text() { return kSlurmPolicy; }
  // ASlurmUserLeftWithAnotherUidIsAssociatedAgainAndTheJobRuns makes a Unix
  // account with this uid under the name allotd gives sa-research's admin; a
  // run killed before it deletes it leaves it, and the next allotd would name
  // its own account for that user "...-2". Removed here when it is one of ours.
  static constexpr int kTestUid = 4242;
  static void remove_leftover_test_user() {
    const std::string command = "u=$(getent passwd " + std::to_string(kTestUid) +
                                " | cut -d: -f1); case \"$u\" in allot-*) userdel \"$u\";; esac";
    EXPECT_EQ(std::system(command.c_str()), 0) << command;
  }
  // Slurm's KillWait (zero when it cannot be read).
  Duration kill_wait() {
    return slurm::kill_wait_of(sh({"scontrol", "show", "config"}).out).value_or(Duration());
  }
  std::vector<std::string> allotd_flags() override {
    return {"--backend",         "slurm", "--slurm-conf",      slurm_conf(),
            "--slurm-poll",      "200ms", "--health-interval", "500ms",
            "--slurm-reconcile", "1s"};
  }

  slurm::CommandResult sh(const std::vector<std::string>& argv) {
    return runner_.run(argv).value();
  }
  // Jobs submitted around allot that hold every h100 GPU of node1 and node2
  // (300 s): node name -> Slurm job id; a node whose sbatch failed is absent
  // (the caller asserts on the size).
  std::map<std::string, std::string> hold_h100_nodes_outside_allot() {
    std::map<std::string, std::string> blockers;
    for (const char* node : {"node1", "node2"}) {
      const slurm::CommandResult made =
          sh({"sbatch", "--parsable", "--job-name=outside-allot", "--account=sa-research",
              "--partition=gpu", "--nodelist=" + std::string(node), "--gres=gpu:h100:8",
              "--mem=100", "--output=/dev/null", "--wrap", "sleep 300"});
      EXPECT_TRUE(made.succeeded()) << made.err;
      if (made.succeeded()) blockers[node] = made.out.substr(0, made.out.find_first_of(";\n"));
    }
    return blockers;
  }
  // hold_h100_nodes_outside_allot(), once squeue lists both blockers
  // RUNNING; empty when one was not submitted or did not start within 30 s.
  std::map<std::string, std::string> hold_h100_nodes_running_outside_allot() {
    std::map<std::string, std::string> blockers = hold_h100_nodes_outside_allot();
    if (blockers.size() != 2) return {};
    const bool running = eventually(
        [&] {
          return sh({"squeue", "-h", "-n", "outside-allot", "-t", "RUNNING", "-o", "%i"})
                     .out.size() >= 2 * blockers.begin()->second.size();
        },
        std::chrono::seconds(30), std::chrono::milliseconds(200));
    return running ? blockers : std::map<std::string, std::string>{};
  }
  // The workload once allot has recorded its Slurm job's id in
  // status.backend.jobId (when the submission answers).
  nlohmann::json wait_for_job_id(const std::string& ns, const std::string& name) {
    return wait_until(
        ns, name,
        [](const nlohmann::json& w) {
          return w["status"].contains("backend") &&
                 !w["status"]["backend"].value("jobId", std::string()).empty();
        },
        "a job id in status.backend");
  }
  // Slurm's jobs of a workload (by allot's job name), "id state" lines.
  std::string jobs_of(const nlohmann::json& workload) {
    const std::string name = job_name(workload);
    return sh({"sacct", "-n", "-X", "-P", "--name=" + name, "-o", "JobID,State"}).out;
  }
  // jobs_of() once sacct lists a job in `state` (slurmdbd records a job's
  // start and end a moment after slurmctld), or what it lists after 30 s.
  std::string jobs_once_recorded(const nlohmann::json& workload, const std::string& state) {
    std::string recorded;
    eventually(
        [&] {
          recorded = jobs_of(workload);
          return recorded.find(state) != std::string::npos;
        },
        std::chrono::seconds(30), std::chrono::milliseconds(200));
    return recorded;
  }
  std::string job_name(const nlohmann::json& workload) {
    std::ifstream file(allotd_.data_dir() / "slurm" / "job-prefix");
    std::string prefix;
    std::getline(file, prefix);
    return prefix + std::to_string(workload["metadata"]["uid"].get<uint64_t>());
  }
  // The `reason`s of the workload's events, in order (their `type` is the
  // phase, or Normal/Warning for notes).
  std::vector<std::string> event_reasons(const std::string& ns, const std::string& name) {
    const Reply reply = api_.get("/api/v1/namespaces/" + ns + "/workloads/" + name + "/events");
    std::vector<std::string> reasons;
    if (reply.status != 200) return {reply.describe()};
    for (const auto& event : reply.json["items"]) reasons.push_back(event["reason"]);
    return reasons;
  }
  static std::string node_of(const nlohmann::json& workload) {
    return workload["status"]["podSets"][0]["pods"][0]["node"].get<std::string>();
  }

  // The CLI (`allot ARGS`) against this allotd: its exit code and output.
  std::pair<int, std::string> allot(const std::string& args) {
    const std::string command = "ALLOT_TOKEN=" + shell_quote(allotd_.admin_token()) +
                                " ALLOT_SERVER=http://127.0.0.1:" + std::to_string(allotd_.port()) +
                                " " + ALLOT_CLI + " " + args;
    return run_shell(command);
  }
  // The line of `table` whose first column is `name` (empty when none).
  static std::string row_of(const std::string& table, const std::string& name) {
    size_t at = 0;
    while (at < table.size()) {
      const size_t end = std::min(table.find('\n', at), table.size());
      const std::string line = table.substr(at, end - at);
      if (line.rfind(name + " ", 0) == 0) return line;
      at = end + 1;
    }
    return {};
  }

  slurm::ProcessRunner runner_{slurm::slurm_environment(slurm_conf()), Duration::seconds(60)};
};

// Item 2 of issue 13: the same policy without NodePools. The Slurm Cluster's
// nodes are Slurm's (`scontrol show nodes`): names, GPU types as flavors,
// capacity; work runs on them; a cordon in allot drains the Slurm node.
class SlurmNodesFromSlurmTest : public SlurmAllotdTest {
 protected:
  std::string policy_text() override {
    std::string text = kSlurmPolicy;
    for (const char* pool : {"h100-nodes", "a100-nodes"}) {
      const size_t start = text.find(
          "---\napiVersion: allot/v1\nkind: NodePool\nmetadata: {name: " + std::string(pool));
      const size_t end = text.find("---", start + 3);
      text.erase(start, end - start);
    }
    return text;
  }
};

}  // namespace allot::server_test
