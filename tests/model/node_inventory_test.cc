#include "model/node_inventory.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace allot {
namespace {

NodePool pool(const std::string& name, const std::string& flavor, int32_t count,
              PoolTopology topology = {}) {
  NodePool p;
  p.meta.name = name;
  p.cluster = "main";
  p.flavor = flavor;
  p.count = count;
  p.resources = ResourceVector(8, 96'000, int64_t{1} << 40);
  p.topology = topology;
  return p;
}

std::vector<int32_t> racks_of(const std::vector<Node>& nodes) {
  std::vector<int32_t> racks;
  racks.reserve(nodes.size());
  for (const Node& node : nodes) racks.push_back(node.rack);
  return racks;
}

std::vector<int32_t> blocks_of(const std::vector<Node>& nodes) {
  std::vector<int32_t> blocks;
  blocks.reserve(nodes.size());
  for (const Node& node : nodes) blocks.push_back(node.block);
  return blocks;
}

TEST(NodeInventory, EmptyPolicyHasNoNodes) { EXPECT_TRUE(expand_node_pools(Policy()).empty()); }

TEST(NodeInventory, NamesNodesAfterTheirPool) {
  Policy policy;
  policy.node_pools = {pool("h100-pool", "h100", 3)};

  const std::vector<Node> nodes = expand_node_pools(policy);

  ASSERT_EQ(nodes.size(), 3U);
  EXPECT_EQ(nodes[0].name, "h100-pool-0");
  EXPECT_EQ(nodes[1].name, "h100-pool-1");
  EXPECT_EQ(nodes[2].name, "h100-pool-2");
}

TEST(NodeInventory, NodeNamesNameTheNodesAsTheBackendDoes) {
  Policy policy;
  policy.node_pools = {pool("slurm", "h100", 2)};
  policy.node_pools[0].node_names = {"node7", "node9"};

  const std::vector<Node> nodes = expand_node_pools(policy);

  ASSERT_EQ(nodes.size(), 2U);
  EXPECT_EQ(nodes[0].name, "node7");
  EXPECT_EQ(nodes[1].name, "node9");
  EXPECT_EQ(nodes[1].pool, "slurm");
}

TEST(NodeInventory, NodesCarryThePoolsFlavorAndCapacity) {
  Policy policy;
  policy.node_pools = {pool("h100-pool", "h100", 2)};

  const std::vector<Node> nodes = expand_node_pools(policy);

  ASSERT_EQ(nodes.size(), 2U);
  for (const Node& node : nodes) {
    EXPECT_EQ(node.pool, "h100-pool");
    EXPECT_EQ(node.flavor, "h100");
    EXPECT_EQ(node.capacity, ResourceVector(8, 96'000, int64_t{1} << 40));
    EXPECT_TRUE(node.healthy);
    EXPECT_FALSE(node.cordoned);
  }
}

TEST(NodeInventory, GroupsConsecutiveNodesIntoRacks) {
  Policy policy;
  policy.node_pools = {pool("h100-pool", "h100", 10, {.nodes_per_rack = 4})};

  const std::vector<Node> nodes = expand_node_pools(policy);

  EXPECT_EQ(racks_of(nodes), (std::vector<int32_t>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2}));
}

TEST(NodeInventory, GroupsConsecutiveRacksIntoBlocks) {
  Policy policy;
  policy.node_pools = {pool("h100-pool", "h100", 10, {.nodes_per_rack = 2, .racks_per_block = 2})};

  const std::vector<Node> nodes = expand_node_pools(policy);

  EXPECT_EQ(racks_of(nodes), (std::vector<int32_t>{0, 0, 1, 1, 2, 2, 3, 3, 4, 4}));
  EXPECT_EQ(blocks_of(nodes), (std::vector<int32_t>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2}));
}

TEST(NodeInventory, WithoutTopologyEveryNodeIsItsOwnRackAndBlock) {
  Policy policy;
  policy.node_pools = {pool("cpu-pool", "cpu", 3)};

  const std::vector<Node> nodes = expand_node_pools(policy);

  EXPECT_EQ(racks_of(nodes), (std::vector<int32_t>{0, 1, 2}));
  EXPECT_EQ(blocks_of(nodes), (std::vector<int32_t>{0, 1, 2}));
}

TEST(NodeInventory, NumbersRacksAndBlocksPerFlavorAcrossPools) {
  Policy policy;
  const PoolTopology topology{.nodes_per_rack = 4, .racks_per_block = 2};
  policy.node_pools = {pool("h100-a", "h100", 6, topology), pool("a100", "a100", 4, topology),
                       pool("h100-b", "h100", 4, topology)};

  const std::vector<Node> nodes = expand_node_pools(policy);

  ASSERT_EQ(nodes.size(), 14U);
  // h100-a: 6 nodes fill racks 0-1 of block 0; a partial rack is not shared.
  EXPECT_EQ(racks_of({nodes.begin(), nodes.begin() + 6}), (std::vector<int32_t>{0, 0, 0, 0, 1, 1}));
  // a100 numbers from zero: its racks are its own.
  EXPECT_EQ(racks_of({nodes.begin() + 6, nodes.begin() + 10}), (std::vector<int32_t>{0, 0, 0, 0}));
  // h100-b continues after h100-a: rack 2, and a new block since a block is not shared either.
  EXPECT_EQ(nodes[10].name, "h100-b-0");
  EXPECT_EQ(racks_of({nodes.begin() + 10, nodes.end()}), (std::vector<int32_t>{2, 2, 2, 2}));
  EXPECT_EQ(blocks_of({nodes.begin() + 10, nodes.end()}), (std::vector<int32_t>{1, 1, 1, 1}));
  EXPECT_EQ(nodes[0].block, 0);
}

}  // namespace
}  // namespace allot
