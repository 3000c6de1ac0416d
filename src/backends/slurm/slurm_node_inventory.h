// SlurmNodeInventory: the NodeInventory port on a real Slurm (`scontrol -o
// show nodes`, parsed by slurm_nodes.h), and the node operations allot's
// cordon and drain carry into Slurm.
//
// Contract:
// - list(): Slurm's nodes (see slurm_nodes.h), through slurmrestd's `GET
//   /nodes` once set_rest() named one, else `scontrol -o show nodes`; Slurm
//   unreachable (the command or request failing or timing out) is
//   kUnavailable: the caller keeps what it knew.
// - drain()/resume() use scontrol either way: slurmrestd v0.0.38 has no node
//   update.
// - drain(node, reason): `scontrol update nodename=N state=DRAIN reason=R`:
//   Slurm starts nothing more there and what runs may finish; resume(node)
//   undoes it (`state=RESUME`). A node Slurm does not know is kNotFound; an
//   empty reason is kInvalidArgument (Slurm requires one).
// - Thread-safe as to set_rest() beside list(); otherwise thread-compatible.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/node_inventory.h"
#include "backends/slurm/command_runner.h"
#include "backends/slurm/rest_transport.h"
#include "base/mutex.h"

namespace allot::slurm {

class SlurmNodeInventory final : public NodeInventory {
 public:
  explicit SlurmNodeInventory(CommandRunner& runner) : runner_(runner) {}

  // Nodes read through slurmrestd from now on (null: scontrol).
  void set_rest(std::shared_ptr<RestTransport> rest);
  Result<std::vector<InventoryNode>> list() override;
  Status drain(const NodeId& node, const std::string& reason) override;
  Status resume(const NodeId& node) override;

 private:
  Status update(const NodeId& node, std::vector<std::string> settings);

  CommandRunner& runner_;
  Mutex mu_;
  std::shared_ptr<RestTransport> rest_ ALLOT_GUARDED_BY(mu_);
};

}  // namespace allot::slurm
