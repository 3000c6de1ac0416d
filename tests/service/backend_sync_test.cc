// service/backend_sync: the policy as a backend with limits of its own holds
// it, and what a backend's node inventory means for the policy's nodes.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "service/backend_sync/backend_policy.h"
#include "service/backend_sync/inventory_nodes.h"
#include "service/backend_sync/inventory_reconciliation.h"

namespace allot {
namespace {

FlavorQuota gpus(int64_t nominal, std::optional<int64_t> borrow = {}) {
  FlavorQuota q;
  q.flavor = "h100";
  q.resources[0] = {nominal, borrow, {}};
  q.declared[0] = true;
  return q;
}

Team team(const std::string& name, const std::string& cohort, FlavorQuota quota,
          double weight = 1.0) {
  Team t;
  t.meta.name = name;
  t.namespace_name = name;
  t.cohort = cohort;
  t.fair_share_weight = weight;
  t.quota = {std::move(quota)};
  return t;
}

Node node(const std::string& name, int64_t gpu_count) {
  Node n;
  n.name = name;
  n.pool = "pool";
  n.flavor = "h100";
  n.capacity = ResourceVector(gpu_count, 64'000, int64_t{512} << 30);
  return n;
}

// org { research { vision(8, borrow 4), nlp(8) } , prod(16) }
CompiledPolicy org_policy(std::vector<Node> nodes = {}) {
  Policy p;
  ResourceFlavor flavor;
  flavor.meta.name = "h100";
  p.flavors = {flavor};
  Cohort org;
  org.meta.name = "org";
  Cohort research;
  research.meta.name = "research";
  research.parent = "org";
  p.cohorts = {org, research};
  p.teams = {team("vision", "research", gpus(8, 4), 2.0), team("nlp", "research", gpus(8)),
             team("prod", "org", gpus(16))};
  return CompiledPolicy::compile(p, std::move(nodes)).value();
}

TEST(BackendPolicy, CarriesTheTreeWithEachTeamsCeilingAndWeight) {
  const BackendPolicy backend = backend_policy_of(org_policy(), "allot");

  EXPECT_EQ(backend.root, "allot");
  EXPECT_EQ(backend.cohorts, (std::vector<SyncedCohort>{{"org", ""}, {"research", "org"}}));
  ASSERT_EQ(backend.teams.size(), 3u);
  const SyncedTeam& vision = backend.teams[0];
  EXPECT_EQ(vision.team, TeamId("vision"));
  EXPECT_EQ(vision.parent, "research");
  EXPECT_EQ(vision.fair_share_weight, 2.0);
  EXPECT_EQ(vision.ceiling, (std::vector<FlavorLimit>{{"h100", Resource::kGpu, 12}}))
      << "nominal 8 + borrowingLimit 4";
  EXPECT_EQ(backend.teams[1].ceiling.at(0).amount, 32) << "nlp may borrow everything";
  EXPECT_EQ(backend.teams[2].parent, "org");
  EXPECT_TRUE(backend.teams[2].users.empty()) << "the identity directory fills users";
}

TEST(BackendPolicy, CarriesPriorityClassesTheTeamsAllowedClassesAndTheFlavors) {
  Policy p;
  ResourceFlavor h100;
  h100.meta.name = "h100";
  ResourceFlavor a100;
  a100.meta.name = "a100";
  p.flavors = {h100, a100};
  PriorityClass batch;
  batch.meta.name = "batch";
  batch.value = 10;
  PriorityClass polite;
  polite.meta.name = "polite";
  polite.value = 500;
  polite.preemption_policy = PreemptionPolicy::kNever;
  p.priority_classes = {batch, polite};
  Team vision = team("vision", "", gpus(8));
  vision.allowed_priority_classes = {"polite"};
  p.teams = {vision, team("nlp", "", gpus(8))};
  const CompiledPolicy compiled = CompiledPolicy::compile(p, {}).value();

  const BackendPolicy backend = backend_policy_of(compiled, "allot");

  EXPECT_EQ(backend.priority_classes,
            (std::vector<SyncedPriorityClass>{{"batch", 10, true}, {"polite", 500, false}}));
  EXPECT_EQ(backend.teams[0].priority_classes, (std::vector<std::string>{"polite"}));
  EXPECT_TRUE(backend.teams[1].priority_classes.empty()) << "all classes";
  EXPECT_EQ(backend.flavors, (std::vector<std::string>{"h100", "a100"}));
}

InventoryNode listed(const std::string& name, int64_t gpu_count) {
  InventoryNode n;
  n.name = NodeId(name);
  n.capacity = ResourceVector(gpu_count, 64'000, int64_t{512} << 30);
  return n;
}

TEST(InventoryReconciliation, AHealthyNodeOfTheRightSizePasses) {
  const CompiledPolicy policy = org_policy({node("n1", 8)});

  const InventoryReconciliation result = reconcile_inventory(policy, {listed("n1", 8)});

  EXPECT_EQ(result.nodes, (std::vector<InventoryVerdict>{{"n1", true, false, ""}}));
  EXPECT_TRUE(result.unknown.empty());
}

TEST(InventoryReconciliation, MissingDownOrSmallerNodesAreUnhealthyAndSayWhy) {
  const CompiledPolicy policy = org_policy({node("gone", 8), node("down", 8), node("small", 8)});
  InventoryNode down = listed("down", 8);
  down.up = false;
  down.reason = "Not responding";

  const InventoryReconciliation result = reconcile_inventory(policy, {down, listed("small", 4)});

  ASSERT_EQ(result.nodes.size(), 3u);
  EXPECT_EQ(result.nodes[0], (InventoryVerdict{"gone", false, false, "not in the backend"}));
  EXPECT_EQ(result.nodes[1], (InventoryVerdict{"down", false, false, "Not responding"}));
  EXPECT_EQ(result.nodes[2], (InventoryVerdict{"small", false, false,
                                               "the backend reports gpu 4 but the policy says 8"}));
}

TEST(InventoryReconciliation, ADrainedNodeIsDrainedAndUnknownNodesAreListed) {
  const CompiledPolicy policy = org_policy({node("n1", 8)});
  InventoryNode drained = listed("n1", 8);
  drained.drained = true;

  const InventoryReconciliation result =
      reconcile_inventory(policy, {listed("zz-extra", 8), drained, listed("a-extra", 2)});

  EXPECT_EQ(result.nodes,
            (std::vector<InventoryVerdict>{{"n1", true, true, "drained in the backend"}}));
  EXPECT_EQ(result.unknown, (std::vector<std::string>{"a-extra", "zz-extra"}));
}

TEST(InventoryNodes, BackendNodesBecomeAllotNodesWithFlavorTopologyAndHealth) {
  InventoryNode typed = listed("node1", 8);
  typed.flavor = "a100";
  typed.labels = {{"rack", "3"}, {"block", "1"}, {"emulated", ""}};
  InventoryNode drained = listed("node2", 8);
  drained.flavor = "h100";
  drained.drained = true;
  InventoryNode down = listed("node3", 4);
  down.flavor = "v100";
  down.up = false;

  const InventoryNodes two = nodes_of_inventory("hpc", {typed, drained, down}, {"h100", "a100"});
  const InventoryNodes one = nodes_of_inventory("hpc", {down}, {"h100"});

  ASSERT_EQ(two.nodes.size(), 2u);
  EXPECT_EQ(two.nodes[0].name, "node1");
  EXPECT_EQ(two.nodes[0].pool, "hpc");
  EXPECT_EQ(two.nodes[0].flavor, "a100");
  EXPECT_EQ(two.nodes[0].rack, 3);
  EXPECT_EQ(two.nodes[0].block, 1);
  EXPECT_EQ(two.nodes[0].capacity, typed.capacity);
  EXPECT_TRUE(two.nodes[1].cordoned);
  EXPECT_TRUE(two.nodes[1].healthy);
  EXPECT_EQ(two.unmatched,
            (std::vector<std::string>{"node3: GPU type v100 is not a flavor of the policy"}));
  ASSERT_EQ(one.nodes.size(), 1u) << "one flavor: every node is of it";
  EXPECT_EQ(one.nodes[0].flavor, "h100");
  EXPECT_FALSE(one.nodes[0].healthy);
}

// Item 2: a Slurm Cluster that declares no NodePool takes its nodes from the
// inventory; one with a NodePool (or a local cluster) keeps the pools'.
TEST(InventoryNodes, ASlurmClusterWithoutNodePoolsTakesTheBackendsNodes) {
  Policy policy;
  Cluster hpc;
  hpc.meta.name = "hpc";
  hpc.backend = BackendKind::kSlurm;
  Cluster lab;
  lab.meta.name = "lab";
  policy.clusters = {hpc, lab};
  ResourceFlavor h100;
  h100.meta.name = "h100";
  ResourceFlavor a100;
  a100.meta.name = "a100";
  policy.flavors = {h100, a100};
  InventoryNode first = listed("node1", 8);
  first.flavor = "h100";
  first.drained = true;
  InventoryNode second = listed("node2", 8);
  second.flavor = "a100";

  EXPECT_EQ(inventory_clusters(policy), (std::vector<std::string>{"hpc"}));
  const InventoryNodes found = policy_inventory_nodes(policy, {first, second});
  ASSERT_EQ(found.nodes.size(), 2u);
  EXPECT_EQ(found.nodes[0].pool, "hpc");
  EXPECT_EQ(found.nodes[1].flavor, "a100");
  EXPECT_FALSE(found.nodes[0].cordoned) << "drains are node conditions, not the policy's";
  const std::vector<Node> nodes = policy_nodes(policy, found.nodes);
  ASSERT_EQ(nodes.size(), 2u);
  EXPECT_EQ(nodes[0].name, "node1");

  NodePool pool;
  pool.meta.name = "pool";
  pool.cluster = "hpc";
  pool.flavor = "h100";
  pool.count = 1;
  policy.node_pools = {pool};
  EXPECT_TRUE(inventory_clusters(policy).empty()) << "it declares a NodePool";
  EXPECT_TRUE(policy_inventory_nodes(policy, {first, second}).nodes.empty());
  const std::vector<Node> pooled = policy_nodes(policy, found.nodes);
  ASSERT_EQ(pooled.size(), 1u);
  EXPECT_EQ(pooled[0].pool, "pool") << "only the pool's node";
}

}  // namespace
}  // namespace allot
