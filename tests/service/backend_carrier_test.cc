// allotd on a backend that owns its nodes and limits (Slurm, issue 13 item 1):
// the policy is carried into the backend (PolicySync) before it is stored,
// a refusal stores nothing, the dry run asks the backend and changes
// nothing, a Cluster of the wrong backend is refused; cordon, drain and
// uncordon reach the backend's node first; the backend's node states are
// node health (service/backend_sync/inventory_health.h).
#include <gtest/gtest.h>

#include "control_plane_fixture.h"
#include "service/backend_sync/inventory_health.h"

namespace allot::testing {
namespace {

constexpr const char* kSlurmPolicy = R"(
apiVersion: allot/v1
kind: ResourceFlavor
metadata: {name: h100}
---
apiVersion: allot/v1
kind: Cluster
metadata: {name: hpc}
spec: {backend: slurm, slurm: {clusterName: allot, partition: gpu, rest: "http://127.0.0.1:6820"}}
---
apiVersion: allot/v1
kind: NodePool
metadata: {name: pool}
spec: {cluster: hpc, flavor: h100, count: 2, nodeNames: [node1, node2], resources: {gpu: 8}}
---
apiVersion: allot/v1
kind: PriorityClass
metadata: {name: batch}
spec: {value: 10}
---
apiVersion: allot/v1
kind: Team
metadata: {name: vision}
spec:
  quota: [{flavor: h100, resources: {gpu: {nominal: 8}}}]
)";

class FakeSync final : public PolicySync {
 public:
  Result<SyncReport> apply(const BackendPolicy& desired) override {
    applied.push_back(desired);
    if (!refusal.ok()) return refusal;
    return SyncReport{{"sacctmgr -i add account vision"}, {}, {}};
  }
  Result<SyncReport> dry_run(const BackendPolicy& desired) override {
    dry_runs.push_back(desired);
    return SyncReport{{"sacctmgr -i add account vision"}, {}, {"account x: drifted"}};
  }
  Result<BackendPolicy> observe() override { return BackendPolicy{}; }

  std::vector<BackendPolicy> applied;
  std::vector<BackendPolicy> dry_runs;
  Status refusal;
};

class FakeInventory final : public NodeInventory {
 public:
  Result<std::vector<InventoryNode>> list() override { return nodes; }
  Status drain(const NodeId& node, const std::string& reason) override {
    calls.push_back("drain " + node.str() + " " + reason);
    return refusal;
  }
  Status resume(const NodeId& node) override {
    calls.push_back("resume " + node.str());
    return refusal;
  }
  std::vector<InventoryNode> nodes;
  std::vector<std::string> calls;
  Status refusal;
};

class BackendCarrierTest : public ::testing::Test {
 protected:
  void start(bool with_backend) {
    ControlPlaneOptions options;
    options.run_loop_thread = false;
    if (with_backend) options.backend = {&sync_, &inventory_, {"runner"}, "allot"};
    plane_ = std::make_unique<ControlPlane>(store_, executor_, nullptr, clock_, logger_, options);
    calls_ = std::make_unique<ControlPlaneCalls>(*plane_);
    ASSERT_TRUE(plane_->start().ok());
  }

  GatedStore store_;
  RecordingExecutor executor_;
  MemoryLogger logger_;
  ManualClock clock_{Timestamp::from_millis(1'800'000'000'000)};
  FakeSync sync_;
  FakeInventory inventory_;
  std::unique_ptr<ControlPlane> plane_;
  std::unique_ptr<ControlPlaneCalls> calls_;
};

TEST_F(BackendCarrierTest, ApplyCarriesThePolicyIntoTheBackendWithItsSiteAndUsers) {
  start(true);

  const Result<ApplyResult> applied = calls_->apply(kSlurmPolicy, false);

  ASSERT_TRUE(applied.ok()) << applied.status().to_string();
  EXPECT_EQ(applied->backend_changes, (std::vector<std::string>{"sacctmgr -i add account vision"}));
  ASSERT_EQ(sync_.applied.size(), 1u);
  const BackendPolicy& sent = sync_.applied[0];
  EXPECT_EQ(sent.site, (BackendSite{"allot", "gpu", "http://127.0.0.1:6820"}))
      << "spec.slurm.rest travels with the site: the backend checks it and uses it";
  EXPECT_EQ(sent.root, "allot");
  ASSERT_EQ(sent.teams.size(), 1u);
  EXPECT_EQ(sent.teams[0].users, (std::vector<std::string>{"runner"}));
  EXPECT_TRUE(calls_->get_node("node1").ok()) << "the NodePool's nodeNames name the nodes";
}

TEST_F(BackendCarrierTest, AWorkloadOnlyApplyDoesNotAskTheBackend) {
  start(true);
  ASSERT_TRUE(calls_->apply(kSlurmPolicy, false).ok());
  const Result<ApplyResult> workload = calls_->apply(
      "apiVersion: allot/v1\nkind: Workload\nmetadata: {name: w, namespace: vision}\nspec:\n"
      "  priorityClass: batch\n  podSets: [{count: 1, resources: {gpu: 1}}]\n  command: "
      "[/bin/true]\n",
      false);

  ASSERT_TRUE(workload.ok()) << workload.status().to_string();

  EXPECT_EQ(sync_.applied.size(), 1u);
}

TEST_F(BackendCarrierTest, ABackendThatRefusesStoresNothing) {
  start(true);
  sync_.refusal = failed_precondition("Slurm has no partition \"gpu\"", "spec.slurm.partition");

  const Result<ApplyResult> applied = calls_->apply(kSlurmPolicy, false);

  ASSERT_FALSE(applied.ok());
  EXPECT_EQ(applied.status().code(), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(applied.status().message(),
            "the policy was not applied: Slurm has no partition \"gpu\"");
  EXPECT_EQ(applied.status().details(), "spec.slurm.partition");
  EXPECT_FALSE(calls_->get_node("node1").ok()) << "nothing stored";
}

TEST_F(BackendCarrierTest, ADryRunAsksTheBackendAndChangesNothing) {
  start(true);

  const Result<ApplyResult> planned = calls_->apply(kSlurmPolicy, true);

  ASSERT_TRUE(planned.ok());
  EXPECT_TRUE(sync_.applied.empty());
  ASSERT_EQ(sync_.dry_runs.size(), 1u);
  EXPECT_EQ(planned->backend_changes, (std::vector<std::string>{"sacctmgr -i add account vision",
                                                                "drift: account x: drifted"}));
}

TEST_F(BackendCarrierTest, ASlurmClusterOnALocalAllotdIsRefused) {
  start(false);

  const Result<ApplyResult> applied = calls_->apply(kSlurmPolicy, false);

  ASSERT_FALSE(applied.ok());
  EXPECT_EQ(applied.status().code(), ErrorCode::kFailedPrecondition);
  EXPECT_EQ(applied.status().details(), "Cluster/hpc.spec.backend");
}

TEST_F(BackendCarrierTest, ALocalClusterOnASlurmAllotdIsRefused) {
  start(true);

  const Result<ApplyResult> applied = calls_->apply(kTwoTeamPolicy, false);

  ASSERT_FALSE(applied.ok());
  EXPECT_EQ(applied.status().details(), "Cluster/local.spec.backend");
  EXPECT_TRUE(sync_.applied.empty());
}

TEST_F(BackendCarrierTest, CordonDrainsTheBackendsNodeFirstAndUncordonResumesIt) {
  start(true);
  ASSERT_TRUE(calls_->apply(kSlurmPolicy, false).ok());

  ASSERT_TRUE(calls_->node_action("node1", NodeAction::kCordon).ok());
  ASSERT_TRUE(calls_->node_action("node1", NodeAction::kUncordon).ok());

  EXPECT_EQ(inventory_.calls,
            (std::vector<std::string>{"drain node1 allot: cordoned by system:anonymous",
                                      "resume node1"}));
}

TEST_F(BackendCarrierTest, ABackendThatRefusesADrainChangesNothing) {
  start(true);
  ASSERT_TRUE(calls_->apply(kSlurmPolicy, false).ok());
  inventory_.refusal = Status(ErrorCode::kUnavailable, "scontrol timed out");

  const Result<nlohmann::json> drained = calls_->node_action("node2", NodeAction::kDrain);

  ASSERT_FALSE(drained.ok());
  EXPECT_EQ(drained.status().code(), ErrorCode::kUnavailable);
  EXPECT_FALSE((*calls_->get_node("node2"))["cordoned"].get<bool>());
}

TEST(InventoryHealth, DownDrainedAndMissingNodesAreUnhealthyButAllotsOwnDrainIsNot) {
  std::vector<InventoryNode> inventory(4);
  inventory[0].name = NodeId("n1");
  inventory[1].name = NodeId("n2");
  inventory[1].up = false;
  inventory[1].reason = "Not responding";
  inventory[2].name = NodeId("n3");
  inventory[2].drained = true;
  inventory[2].reason = "bad dimm";
  inventory[3].name = NodeId("n4");
  inventory[3].drained = true;
  inventory[3].reason = "allot: cordoned by admin";

  const std::vector<NodeHealthReport> reports =
      health_of_inventory({"n1", "n2", "n3", "n4", "n5"}, inventory);

  EXPECT_EQ(reports,
            (std::vector<NodeHealthReport>{{"n1", true, ""},
                                           {"n2", false, "down in the backend: Not responding"},
                                           {"n3", false, "drained in the backend: bad dimm"},
                                           {"n4", true, ""},
                                           {"n5", false, "not in the backend's nodes"}}));
}

// For the views: Slurm's own state and reason of every node, as the last
// successful round read them.
TEST(InventoryHealth, KeepsTheBackendsOwnStateOfEachNodeForTheViews) {
  class TwoNodes final : public NodeInventory {
   public:
    Result<std::vector<InventoryNode>> list() override {
      if (!reachable) return Status(ErrorCode::kUnavailable, "scontrol: timed out");
      std::vector<InventoryNode> nodes(2);
      nodes[0].name = NodeId("n1");
      nodes[0].state = "MIXED";
      nodes[1].name = NodeId("n2");
      nodes[1].up = false;
      nodes[1].state = "DOWN*";
      nodes[1].reason = "Not responding";
      return nodes;
    }
    Status drain(const NodeId&, const std::string&) override { return {}; }
    Status resume(const NodeId&) override { return {}; }
    bool reachable = true;
  } inventory;
  InventoryHealthChecker checker(inventory);
  EXPECT_TRUE(checker.backend_states().empty());

  checker.check({"n1"});
  const std::map<std::string, BackendNodeState> expected = {{"n1", {"MIXED", ""}},
                                                            {"n2", {"DOWN*", "Not responding"}}};
  EXPECT_EQ(checker.backend_states(), expected);

  inventory.reachable = false;
  checker.check({"n1"});
  EXPECT_EQ(checker.backend_states(), expected) << "a failed round keeps what was known";
}

TEST(InventoryHealth, ABackendThatCannotBeReachedReportsNothing) {
  class Unreachable final : public NodeInventory {
   public:
    Result<std::vector<InventoryNode>> list() override {
      return Status(ErrorCode::kUnavailable, "scontrol: timed out");
    }
    Status drain(const NodeId&, const std::string&) override { return {}; }
    Status resume(const NodeId&) override { return {}; }
  } unreachable;
  InventoryHealthChecker checker(unreachable);

  EXPECT_TRUE(checker.check({"n1"}).empty());
}

}  // namespace
}  // namespace allot::testing
