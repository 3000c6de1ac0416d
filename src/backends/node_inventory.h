// NodeInventory: the nodes as the execution backend knows them (DESIGN.md
// section 5, "node inventory and health"), for a backend that owns its nodes
// (Slurm's sinfo/slurmrestd, Kubernetes' Node objects) rather than running
// the policy's NodePools itself as the local and simulated backends do.
//
// Contract:
// - list() answers every node the backend has, in name order, with what the
//   backend says it can give (its capacity, GPUs included), whether it is up,
//   and whether the backend's own operators took it out of service (Slurm
//   DRAIN/DOWN, a cordoned Kubernetes node), with the backend's reason.
// - It does not change the backend. A backend that cannot be reached answers
//   kUnavailable and the caller keeps what it knew: a failed poll is never
//   read as "every node is gone".
// - The caller reconciles it with the policy: a policy node the backend lacks,
//   or one smaller than the policy says, is not schedulable, with the reason.
// - Thread-compatible: the service calls it from one thread.
// Implemented by the Slurm backend (issue 13) and the Kubernetes backend; the
// local backend has no inventory of its own (its nodes are the policy's).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "base/quantity.h"
#include "base/result.h"
#include "model/ids.h"

namespace allot {

struct InventoryNode {
  NodeId name;
  ResourceVector capacity;  // what the backend can give on it
  bool up = true;           // it answers and can run work
  bool drained = false;     // taken out of service in the backend by its operators
  std::string reason;       // the backend's words, when down or drained
  std::string state;        // the backend's own state word(s) (Slurm: "IDLE", "MIXED+DRAIN")
  std::string flavor;       // the kind of accelerator where the backend names it; empty: not said
  // The backend's node labels (Slurm features; `rack-N`/`block-N` features
  // become rack/block labels): topology and constraints.
  std::map<std::string, std::string> labels;

  friend bool operator==(const InventoryNode&, const InventoryNode&) = default;
};

class NodeInventory {
 public:
  virtual ~NodeInventory() = default;
  virtual Result<std::vector<InventoryNode>> list() = 0;
  // allot's cordon and drain carried into the backend (Slurm: `scontrol
  // update state=DRAIN reason=...`): it starts nothing more on the node;
  // resume() undoes it. A node the backend does not know is kNotFound; a
  // backend that cannot be reached kUnavailable.
  virtual Status drain(const NodeId& node, const std::string& reason) = 0;
  virtual Status resume(const NodeId& node) = 0;
};

}  // namespace allot
