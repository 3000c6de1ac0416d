// HealthMonitor: runs the backend's node health checks when they are due and
// turns their reports into node conditions (node_conditions.h): a failed node
// is cordoned (its work is then evicted by the admission cycle), a node that
// recovers is uncordoned if the monitor had cordoned it.
//
// Contract: check_if_due() runs one round when `now` reached the next due
// time (the first round at start), outside every lock of the state (checks
// may block for the backend's timeout per node), and returns its reports
// (empty when not due or there is no checker). apply() is called by the loop
// with the state held exclusively; it also records the backend's own state
// of each node (NodeHealthChecker::backend_states(), in memory: the views
// show it beside allot's health), and, for a Slurm Cluster that declares no
// NodePool, takes the backend's nodes into the policy when they changed
// (PolicyState::with_backend_nodes(): nodes read from Slurm, docs/slurm.md),
// recording metering's new capacity of them in the same batch (metering.h).
// Used by the admission loop's thread only.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backends/node_health.h"
#include "base/clock.h"
#include "base/logger.h"
#include "base/time.h"
#include "service/control/cluster_state.h"

namespace allot {

class HealthMonitor {
 public:
  // `checker` may be null: no health checks.
  HealthMonitor(ClusterState& cluster, NodeHealthChecker* checker, const Clock& clock,
                Logger& logger, Duration interval)
      : cluster_(cluster), checker_(checker), clock_(clock), logger_(logger), interval_(interval) {}

  void start(Timestamp now) { next_due_ = now; }

  std::vector<NodeHealthReport> check_if_due() ALLOT_EXCLUDES(cluster_.mutex());

  // Returns whether a node's health changed (a cycle is then due).
  // REQUIRES: `state` is the cluster's, held exclusively.
  bool apply(const std::vector<NodeHealthReport>& reports, Timestamp now, ServerState& state,
             WriteBatch& batch);

  // When the next round is due (infinite_future without a checker).
  [[nodiscard]] Timestamp next_due() const {
    return checker_ != nullptr ? next_due_ : Timestamp::infinite_future();
  }

 private:
  ClusterState& cluster_;
  NodeHealthChecker* checker_;
  const Clock& clock_;
  Logger& logger_;
  Duration interval_;
  Timestamp next_due_;
  std::map<std::string, BackendNodeState> backend_states_;  // of the last round
  std::optional<std::vector<InventoryNode>> inventory_;     // of the last round
  // Takes the backend's nodes into the policy (a Slurm cluster without
  // NodePools) when they changed, with metering's capacity of them (in
  // `batch`); whether they did.
  bool adopt_inventory_nodes(ServerState& state, Timestamp now, WriteBatch& batch);
};

}  // namespace allot
