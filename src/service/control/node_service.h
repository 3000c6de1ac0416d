// NodeService: the nodes of the applied policy as operators see them and act
// on them: list and get (capacity, allocation, condition, workloads), cordon,
// drain (its work is stopped with its grace period and requeued at its
// original position) and uncordon.
//
// Contract: actions change existing state under the cluster's writer lock
// and commit before pods are stopped; reads answer only what is stored.
// Every call checks the caller first (caller_rights.h). Thread-safe.
#pragma once

#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "model/principal.h"
#include "model/views/node_view.h"
#include "service/control/action_runner.h"
#include "service/control/cluster_state.h"
#include "service/control/loop_signal.h"

namespace allot {

class NodeService {
 public:
  NodeService(ClusterState& cluster, LoopSignal& signal, ActionRunner& actions, const Clock& clock)
      : cluster_(cluster), signal_(signal), actions_(actions), clock_(clock) {}

  // Returns the node after the action.
  Result<NodeView> act(const Principal& caller, const std::string& name, NodeAction action);

  [[nodiscard]] Result<std::vector<NodeView>> list(const Principal& caller) const;
  [[nodiscard]] Result<NodeView> get(const Principal& caller, const std::string& name) const;

 private:
  ClusterState& cluster_;
  LoopSignal& signal_;
  ActionRunner& actions_;
  const Clock& clock_;
};

// The view of the policy's node `index` in `state`. Pure.
// REQUIRES: state.policy.compiled() is not null; index < its node count.
NodeView node_view(const ServerState& state, size_t index);

}  // namespace allot
