// The Slurm backend's edge against a real Slurm 22.05 (the ctest fixture
// `slurm`: scripts/slurm.sh, four emulated nodes, GRES types h100 on
// node1-2 and a100 on node3-4): policy sync through sacctmgr, its
// idempotence, drift, the errors that leave Slurm untouched, the ceiling
// holding jobs submitted around allot, and Slurm's nodes (drain, down).
// Each test manages its own root account and QoS names, and removes them.
#include <chrono>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "backends/slurm/command_runner.h"
#include "backends/slurm/slurm_node_inventory.h"
#include "backends/slurm/slurm_policy_sync.h"

namespace allot::slurm {
namespace {

std::string slurm_conf() {
  const char* conf = std::getenv("ALLOT_TEST_SLURM_CONF");
  return conf == nullptr ? std::string() : conf;
}

class SlurmCluster : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(slurm_conf().empty())
        << "run under ctest: the `slurm` fixture sets ALLOT_TEST_SLURM_CONF";
    purge();
  }
  void TearDown() override { purge(); }

  // The root of this test: its accounts and QoS are named after it.
  std::string root() const {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::string out = "t";
    for (char c : name) {
      if (std::isupper(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(c));
      if (out.size() >= 12) break;
    }
    return out;
  }
  std::string qos(const std::string& name) const { return root() + "-" + name; }

  // Two flavors (typed GRES); vision may hold 4 h100 and 2 a100 GPUs.
  BackendPolicy policy() const {
    BackendPolicy p;
    p.root = root();
    p.flavors = {"a100", "h100"};
    p.cohorts = {{root() + "-org", ""}};
    SyncedTeam vision;
    vision.team = TeamId(root() + "-vision");
    vision.parent = root() + "-org";
    vision.ceiling = {{"h100", Resource::kGpu, 4}, {"a100", Resource::kGpu, 2}};
    vision.users = {"root"};
    SyncedTeam nlp;
    nlp.team = TeamId(root() + "-nlp");
    nlp.parent = root() + "-org";
    nlp.ceiling = {{"h100", Resource::kGpu, 16}};
    nlp.users = {"root"};
    p.teams = {vision, nlp};
    p.priority_classes = {{qos("batch"), 0, true}, {qos("prod"), 100, true}};
    return p;
  }

  CommandResult sh(const std::vector<std::string>& argv) { return runner_.run(argv).value(); }

  // Removes every account under this test's root, the root, and its QoS.
  void purge() {
    if (slurm_conf().empty()) return;
    const std::string accounts = root() + "-vision," + root() + "-nlp";
    // scancel takes one account (a list matches none: the jobs then ran on).
    sh({"scancel", "--account=" + root() + "-vision"});
    sh({"scancel", "--account=" + root() + "-nlp"});
    // A cancelled job holds its node until it has ended (COMPLETING), which
    // takes a while on a loaded machine: the next test needs whole nodes.
    for (int i = 0; i < 600; ++i) {
      if (sh({"squeue", "-h", "-A", accounts, "-o", "%i"}).out.empty()) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    const SlurmAccounting mine = managed_part(sync_.read_accounting().value(), root());
    for (auto it = mine.associations.rbegin(); it != mine.associations.rend(); ++it) {
      if (it->user.empty())
        sh({"sacctmgr", "-i", "delete", "account", "where", "name=" + it->account});
    }
    for (const SlurmQos& q : mine.qos)
      sh({"sacctmgr", "-i", "delete", "qos", "where", "name=" + q.name});
  }

  const SlurmAssociation* account(const SlurmAccounting& state, const std::string& name) {
    for (const SlurmAssociation& a : state.associations) {
      if (a.account == name && a.user.empty()) return &a;
    }
    return nullptr;
  }

  // Polls squeue (Slurm decides on its own time) for up to 60 s.
  std::string job_field(const std::string& job, const std::string& format,
                        const std::string& want) {
    std::string got;
    for (int i = 0; i < 600; ++i) {
      got = sh({"squeue", "-h", "-j", job, "-o", format}).out;
      while (!got.empty() && (got.back() == '\n' || got.back() == ' ')) got.pop_back();
      if (got == want) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return got;
  }

  std::string submit(const std::string& account, const std::string& gres,
                     const std::string& qos_name = "") {
    std::vector<std::string> argv = {"sbatch", "--parsable",     "-A", account,    "-p",
                                     "gpu",    "--gres=" + gres, "-o", "/dev/null"};
    if (!qos_name.empty()) argv.push_back("--qos=" + qos_name);
    argv.insert(argv.end(), {"--wrap", "sleep 60"});
    CommandResult r = sh(argv);
    EXPECT_TRUE(r.succeeded()) << r.err;
    std::string id = r.out;
    while (!id.empty() && (id.back() == '\n')) id.pop_back();
    return id;
  }

  ProcessRunner runner_{slurm_environment(slurm_conf()), Duration::seconds(60)};
  SlurmPolicySync sync_{runner_, {"allot", "gpu"}};
};

TEST_F(SlurmCluster, ApplyCarriesThePolicyAndASecondApplyChangesNothing) {
  const SyncReport first = sync_.apply(policy()).value();
  const SyncReport second = sync_.apply(policy()).value();

  EXPECT_EQ(first.changes.size(), 9u) << "2 QoS, root, cohort, 2 teams, 2 users, a Preempt list";
  EXPECT_TRUE(second.changes.empty()) << second.changes.front();
  const SlurmAccounting state = sync_.read_accounting().value();
  const SlurmAssociation* vision = account(state, root() + "-vision");
  ASSERT_NE(vision, nullptr);
  EXPECT_EQ(vision->parent, root() + "-org");
  EXPECT_EQ(vision->grp_tres, (TresMap{{"gres/gpu:a100", 2}, {"gres/gpu:h100", 4}}));
  EXPECT_EQ(vision->default_qos, qos("batch"));
  const BackendPolicy seen = sync_.observe().value();
  ASSERT_EQ(seen.teams.size(), 2u);
  EXPECT_EQ(seen.cohorts, (std::vector<SyncedCohort>{{root() + "-org", ""}}));
  EXPECT_EQ(seen.priority_classes.size(), 2u);
}

TEST_F(SlurmCluster, AChangeMadeInSlurmByHandIsDriftAndTheNextApplyUndoesIt) {
  ASSERT_TRUE(sync_.apply(policy()).ok());
  ASSERT_TRUE(sh({"sacctmgr", "-i", "modify", "account", "where", "name=" + root() + "-vision",
                  "set", "GrpTRES=gres/gpu:h100=99"})
                  .succeeded());

  const SyncPlan plan = sync_.plan(policy()).value();
  const SyncReport undone = sync_.apply(policy()).value();

  ASSERT_EQ(plan.drift.size(), 1u);
  EXPECT_EQ(plan.drift[0], "account " + root() +
                               "-vision: GrpTRES gres/gpu:a100=2,gres/gpu:h100=99 in "
                               "Slurm, gres/gpu:a100=2,gres/gpu:h100=4 in allot's policy");
  EXPECT_EQ(undone.changes.size(), 1u);
  EXPECT_TRUE(sync_.plan(policy()).value().drift.empty());
}

TEST_F(SlurmCluster, AnUnknownGresTypePartitionOrClusterChangesNothing) {
  BackendPolicy unknown_type = policy();
  unknown_type.flavors.push_back("v100");
  unknown_type.teams[1].ceiling.push_back({"v100", Resource::kGpu, 8});
  SlurmPolicySync no_partition(runner_, {"allot", "nope"});
  SlurmPolicySync no_cluster(runner_, {"elsewhere", "gpu"});

  const Result<SyncReport> type = sync_.apply(unknown_type);
  const Result<SyncReport> partition = no_partition.apply(policy());
  const Result<SyncReport> cluster = no_cluster.apply(policy());

  ASSERT_FALSE(type.ok());
  EXPECT_EQ(type.status().code(), ErrorCode::kFailedPrecondition);
  EXPECT_NE(type.status().message().find("Slurm does not know the TRES \"gres/gpu:v100\""),
            std::string::npos)
      << type.status().message();
  ASSERT_FALSE(partition.ok());
  EXPECT_NE(partition.status().message().find("no partition \"nope\""), std::string::npos);
  EXPECT_EQ(partition.status().details(), "spec.slurm.partition");
  ASSERT_FALSE(cluster.ok());
  EXPECT_EQ(cluster.status().details(), "spec.slurm.clusterName");
  EXPECT_TRUE(managed_part(sync_.read_accounting().value(), root()).associations.empty())
      << "nothing half synced";
}

TEST_F(SlurmCluster, WithoutSacctmgrApplyFailsSayingSo) {
  ProcessRunner no_slurm({"PATH=/nonexistent"}, Duration::seconds(5));
  SlurmPolicySync sync(no_slurm, {"allot", "gpu"});

  const Result<SyncReport> report = sync.apply(policy());

  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.status().code(), ErrorCode::kFailedPrecondition);
  EXPECT_NE(report.status().message().find("cannot run sacctmgr: not found"), std::string::npos)
      << report.status().message();
}

TEST_F(SlurmCluster, TheCeilingHoldsJobsSubmittedAroundAllot) {
  ASSERT_TRUE(sync_.apply(policy()).ok());
  const std::string vision = root() + "-vision";

  const std::string first = submit(vision, "gpu:h100:3");
  const std::string second = submit(vision, "gpu:h100:3");

  EXPECT_EQ(job_field(first, "%T", "RUNNING"), "RUNNING");
  EXPECT_EQ(job_field(second, "%r", "AssocGrpGRES"), "AssocGrpGRES")
      << "6 h100 GPUs exceed vision's ceiling of 4";
}

TEST_F(SlurmCluster, AHigherPriorityClassRequeuesALowerOnesJob) {
  ASSERT_TRUE(sync_.apply(policy()).ok());
  const std::string nlp = root() + "-nlp";
  const std::string low1 = submit(nlp, "gpu:h100:8", qos("batch"));
  const std::string low2 = submit(nlp, "gpu:h100:8", qos("batch"));
  ASSERT_EQ(job_field(low1, "%T", "RUNNING"), "RUNNING");
  ASSERT_EQ(job_field(low2, "%T", "RUNNING"), "RUNNING") << "both h100 nodes are full";

  // Another team's (a job of nlp would wait for nlp's own ceiling, not preempt).
  const std::string high = submit(root() + "-vision", "gpu:h100:4", qos("prod"));

  EXPECT_EQ(job_field(high, "%T", "RUNNING"), "RUNNING");
  const std::string requeued =
      sh({"sacct", "-n", "-X", "-D", "-P", "-j", low1 + "," + low2, "-o", "state"}).out;
  EXPECT_NE(requeued.find("PREEMPTED"), std::string::npos)
      << "one batch job is preempted (and requeued): " << requeued;
}

TEST_F(SlurmCluster, ATeamThatLeftIsKeptAtZeroGpusWhileItHasJobsThenRemoved) {
  ASSERT_TRUE(sync_.apply(policy()).ok());
  const std::string nlp = root() + "-nlp";
  const std::string job = submit(nlp, "gpu:h100:1");
  ASSERT_EQ(job_field(job, "%T", "RUNNING"), "RUNNING");
  BackendPolicy without_nlp = policy();
  without_nlp.teams.pop_back();

  const SyncReport kept = sync_.apply(without_nlp).value();
  const SlurmAccounting while_busy = sync_.read_accounting().value();
  const SlurmAssociation* held = account(while_busy, nlp);
  sh({"scancel", job});
  ASSERT_EQ(job_field(job, "%T", ""), "");
  const SyncReport removed = sync_.apply(without_nlp).value();

  EXPECT_EQ(kept.deferred, (std::vector<std::string>{nlp}));
  ASSERT_NE(held, nullptr);
  EXPECT_EQ(held->grp_tres, (TresMap{{"gres/gpu", 0}, {"gres/gpu:h100", 0}}));
  EXPECT_TRUE(removed.deferred.empty());
  EXPECT_EQ(account(sync_.read_accounting().value(), nlp), nullptr);
}

TEST_F(SlurmCluster, NodesComeFromSlurmWithTheirGpuTypes) {
  SlurmNodeInventory inventory(runner_);

  const std::vector<InventoryNode> nodes = inventory.list().value();

  ASSERT_EQ(nodes.size(), 4u);
  EXPECT_EQ(nodes[0].name, NodeId("node1"));
  EXPECT_EQ(nodes[0].capacity, ResourceVector(8, 16'000, int64_t{65536} << 20));
  EXPECT_EQ(nodes[0].flavor, "h100");
  EXPECT_EQ(nodes[3].flavor, "a100");
  EXPECT_TRUE(nodes[3].labels.contains("emulated"));
  EXPECT_TRUE(nodes[3].up);
}

TEST_F(SlurmCluster, DrainInAllotDrainsTheSlurmNodeAndDownIsSeen) {
  SlurmNodeInventory inventory(runner_);

  ASSERT_TRUE(inventory.drain(NodeId("node4"), "allot drain: bad fan").ok());
  const InventoryNode drained = inventory.list().value()[3];
  ASSERT_TRUE(inventory.resume(NodeId("node4")).ok());
  ASSERT_TRUE(
      sh({"scontrol", "update", "nodename=node3", "state=DOWN", "reason=cable"}).succeeded());
  const InventoryNode down = inventory.list().value()[2];
  ASSERT_TRUE(inventory.resume(NodeId("node3")).ok());
  std::vector<InventoryNode> after = inventory.list().value();
  for (int i = 0; i < 300 && !after[2].up; ++i) {  // slurmd registers again on Slurm's time
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    after = inventory.list().value();
  }

  EXPECT_TRUE(drained.drained);
  EXPECT_EQ(drained.reason.rfind("allot drain: bad fan", 0), 0u) << drained.reason;
  EXPECT_FALSE(down.up);
  EXPECT_EQ(down.reason.rfind("cable", 0), 0u) << down.reason;
  EXPECT_FALSE(after[3].drained);
  EXPECT_TRUE(after[2].up);
  EXPECT_EQ(inventory.drain(NodeId("node99"), "x").code(), ErrorCode::kNotFound);
}

}  // namespace
}  // namespace allot::slurm
