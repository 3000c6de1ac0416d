// backends/slurm/slurm_nodes.h: `scontrol -o show nodes` (Slurm 22.05's own
// text) as allot's node inventory.
#include "backends/slurm/slurm_nodes.h"

#include <gtest/gtest.h>

namespace allot::slurm {
namespace {

const char* const kNode1 =
    "NodeName=node1 Arch=x86_64 CoresPerSocket=16 CPUAlloc=0 CPUEfctv=16 CPUTot=16 CPULoad=2.99 "
    "AvailableFeatures=emulated,h100,rack-3,block-1 ActiveFeatures=emulated,h100 Gres=gpu:h100:8 "
    "NodeAddr=127.0.0.1 NodeHostName=localhost Version=22.05.8 OS=Linux 6.18.44 #1 SMP "
    "RealMemory=65536 AllocMem=0 FreeMem=16497 Sockets=1 Boards=1 State=IDLE ThreadsPerCore=1 "
    "Partitions=gpu CfgTRES=cpu=16,mem=64G,billing=16,gres/gpu=8,gres/gpu:h100=8";

TEST(SlurmNodes, ReadsCapacityFlavorAndTopologyLabels) {
  const std::vector<InventoryNode> nodes = parse_slurm_nodes(std::string(kNode1) + "\n").value();

  ASSERT_EQ(nodes.size(), 1u);
  const InventoryNode& n = nodes[0];
  EXPECT_EQ(n.name, NodeId("node1"));
  EXPECT_EQ(n.capacity, ResourceVector(8, 16'000, int64_t{65536} << 20));
  EXPECT_EQ(n.flavor, "h100");
  EXPECT_EQ(n.labels, (std::map<std::string, std::string>{
                          {"block", "1"}, {"emulated", ""}, {"h100", ""}, {"rack", "3"}}));
  EXPECT_TRUE(n.up);
  EXPECT_FALSE(n.drained);
  EXPECT_EQ(n.reason, "");
  EXPECT_EQ(n.state, "IDLE") << "Slurm's state, for the views";
}

TEST(SlurmNodes, DownFailAndNotRespondingAreDownDrainIsDrainedWithSlurmsReason) {
  const std::string output =
      "NodeName=n4 CPUTot=8 RealMemory=100 Gres=gpu:2 State=DOWN+NOT_RESPONDING Reason=Not "
      "responding [slurm@2026-12-03T06:40:00]\n"
      "NodeName=n2 CPUTot=8 RealMemory=100 Gres=gpu:2 State=MIXED+DRAIN Reason=bad fan [root@x]\n"
      "NodeName=n3 CPUTot=8 RealMemory=100 Gres=gpu:2 State=IDLE+FAIL\n"
      "NodeName=n1 CPUTot=8 RealMemory=100 Gres=gpu:a100:1(S:0),gpu:h100:1 State=IDLE*\n";

  const std::vector<InventoryNode> nodes = parse_slurm_nodes(output).value();

  ASSERT_EQ(nodes.size(), 4u);
  EXPECT_EQ(nodes[0].name, NodeId("n1")) << "name order";
  EXPECT_TRUE(nodes[0].up);
  EXPECT_EQ(nodes[0].capacity[Resource::kGpu], 2);
  EXPECT_EQ(nodes[0].flavor, "") << "two GPU types: no single flavor";
  EXPECT_TRUE(nodes[1].up);
  EXPECT_TRUE(nodes[1].drained);
  EXPECT_EQ(nodes[1].reason, "bad fan [root@x]");
  EXPECT_FALSE(nodes[2].up);
  EXPECT_EQ(nodes[2].reason, "Slurm state IDLE+FAIL");
  EXPECT_FALSE(nodes[3].up);
  EXPECT_EQ(nodes[3].reason, "Not responding [slurm@2026-12-03T06:40:00]");
  EXPECT_EQ(nodes[3].state, "DOWN+NOT_RESPONDING");
  EXPECT_EQ(nodes[1].state, "MIXED+DRAIN");
  EXPECT_EQ(nodes[0].state, "IDLE*");
}

TEST(SlurmNodes, MalformedOutputNamesTheNodeAndField) {
  const Result<std::vector<InventoryNode>> bad = parse_slurm_nodes("NodeName=n1 CPUTot=lots\n");
  const Result<std::vector<InventoryNode>> nameless = parse_slurm_nodes("CPUTot=8\n");

  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "scontrol show nodes: node n1: CPUTot=\"lots\" is not a number");
  EXPECT_FALSE(nameless.ok());
}

}  // namespace
}  // namespace allot::slurm
