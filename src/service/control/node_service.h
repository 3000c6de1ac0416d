// NodeService: the nodes of the applied policy as operators see them and act
// on them: list and get (capacity, allocation, condition, workloads), cordon,
// drain (its work is stopped with its grace period and requeued at its
// original position) and uncordon; where the backend owns the nodes, carried
// into it first.
//
// Contract: actions change existing state under the cluster's writer lock;
// they answer once the change is stored and its pods were told to stop,
// holding no lock meanwhile (cluster_state.h); reads answer only what is
// stored.
// Every call checks the caller first (caller_rights.h). Thread-safe.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "backends/node_inventory.h"
#include "base/clock.h"
#include "base/result.h"
#include "model/principal.h"
#include "model/views/node_view.h"
#include "service/control/cluster_state.h"
#include "service/control/loop_signal.h"

namespace allot {

class NodeService {
 public:
  NodeService(ClusterState& cluster, LoopSignal& signal, const Clock& clock)
      : cluster_(cluster), signal_(signal), clock_(clock) {}

  // Returns the node after the action.
  Result<NodeView> act(const Principal& caller, const std::string& name, NodeAction action);

  // A backend that owns its nodes (Slurm): cordon and drain drain the node
  // there too (reason "allot: ..."), uncordon resumes it, before allot
  // stores the change; a backend that refuses fails the action and nothing
  // changes. Null: none. Set once, before serving.
  void set_inventory(NodeInventory* inventory) { inventory_ = inventory; }

  // One page in the policy's order. The allocation of every node of the page
  // comes from one pass over the admitted work (not one per node).
  [[nodiscard]] Result<NodePage> list(const Principal& caller, const NodeQuery& query) const;
  [[nodiscard]] Result<NodeView> get(const Principal& caller, const std::string& name) const;

 private:
  Status carry_into_backend(const Principal& caller, const std::string& name, NodeAction action);

  ClusterState& cluster_;
  LoopSignal& signal_;
  const Clock& clock_;
  NodeInventory* inventory_ = nullptr;
};

// What the admitted work holds on each node, by node name.
struct NodeAllocation {
  ResourceVector allocated;
  std::vector<std::string> workloads;  // "namespace/name"
};
using NodeAllocations = std::unordered_map<std::string, NodeAllocation>;

// One pass over the admitted work of `state`; of node `*only` alone when
// given. Pure.
NodeAllocations node_allocations(const ServerState& state, const std::string* only = nullptr);

// The view of the policy's node `index` in `state`. Pure.
// REQUIRES: state.policy.compiled() is not null; index < its node count.
NodeView node_view(const ServerState& state, const NodeAllocations& allocations, size_t index);

}  // namespace allot
