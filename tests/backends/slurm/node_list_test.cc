// Slurm's node lists (backends/slurm/node_list.h): expanded as squeue writes
// them, and a running job's nodes compared with allot's placement.
#include "backends/slurm/node_list.h"

#include <gtest/gtest.h>

namespace allot::slurm {
namespace {

using Nodes = std::vector<std::string>;

TEST(SlurmNodeList, ExpandsRangesListsAndZeroPaddingSortedAndDistinct) {
  EXPECT_EQ(expand_node_list("node1"), (Nodes{"node1"}));
  EXPECT_EQ(expand_node_list("node[1-3,7]"), (Nodes{"node1", "node2", "node3", "node7"}));
  EXPECT_EQ(expand_node_list("node[7,1-2],gpu-a01"), (Nodes{"gpu-a01", "node1", "node2", "node7"}));
  EXPECT_EQ(expand_node_list("n[08-10]"), (Nodes{"n08", "n09", "n10"}));
  EXPECT_EQ(expand_node_list("rack[1-2]-gpu"), (Nodes{"rack1-gpu", "rack2-gpu"}));
  EXPECT_EQ(expand_node_list("node2,node[1-2]"), (Nodes{"node1", "node2"}));
  EXPECT_EQ(expand_node_list(""), Nodes{});
  EXPECT_EQ(expand_node_list("(null)"), Nodes{});
}

TEST(SlurmNodeList, WhatItCannotReadIsNullopt) {
  EXPECT_FALSE(expand_node_list("node[1-3").has_value());
  EXPECT_FALSE(expand_node_list("node[3-1]").has_value());
  EXPECT_FALSE(expand_node_list("node[a-b]").has_value());
  EXPECT_FALSE(expand_node_list("r[1-2]n[1-2]").has_value());
  EXPECT_FALSE(expand_node_list("node1]").has_value());
  EXPECT_FALSE(expand_node_list("node[[1]]").has_value());
}

TEST(SlurmNodeList, PlacedElsewhereNamesAllotsPlacementOnlyWhenTheSetsDiffer) {
  EXPECT_EQ(placed_elsewhere({"node1", "node2"}, "node[1-2]"), "");
  EXPECT_EQ(placed_elsewhere({"node2", "node1", "node2"}, "node[1-2]"), "") << "pods share nodes";
  EXPECT_EQ(placed_elsewhere({"node1"}, "node3"), "node1");
  EXPECT_EQ(placed_elsewhere({"node2", "node1"}, "node[1,3]"), "node1,node2");
  EXPECT_EQ(placed_elsewhere({"node1"}, "node[1-2]"), "node1") << "a node more";
  EXPECT_EQ(placed_elsewhere({"node1"}, ""), "") << "no nodes named yet";
  EXPECT_EQ(placed_elsewhere({"node1"}, "node[1-"), "") << "unreadable: nothing said";
}

}  // namespace
}  // namespace allot::slurm
