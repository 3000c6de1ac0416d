// SlurmNodeInventory: the NodeInventory port on a real Slurm (`scontrol -o
// show nodes`, parsed by slurm_nodes.h), and the node operations allot's
// cordon and drain carry into Slurm.
//
// Contract:
// - list(): Slurm's nodes (see slurm_nodes.h); Slurm unreachable (scontrol
//   failing or timing out) is kUnavailable: the caller keeps what it knew.
// - drain(node, reason): `scontrol update nodename=N state=DRAIN reason=R`:
//   Slurm starts nothing more there and what runs may finish; resume(node)
//   undoes it (`state=RESUME`). A node Slurm does not know is kNotFound; an
//   empty reason is kInvalidArgument (Slurm requires one).
// - Thread-compatible.
#pragma once

#include <string>
#include <vector>

#include "backends/node_inventory.h"
#include "backends/slurm/command_runner.h"

namespace allot::slurm {

class SlurmNodeInventory final : public NodeInventory {
 public:
  explicit SlurmNodeInventory(CommandRunner& runner) : runner_(runner) {}

  Result<std::vector<InventoryNode>> list() override;
  Status drain(const NodeId& node, const std::string& reason) override;
  Status resume(const NodeId& node) override;

 private:
  Status update(const NodeId& node, std::vector<std::string> settings);

  CommandRunner& runner_;
};

}  // namespace allot::slurm
