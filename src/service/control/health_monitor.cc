#include "service/control/health_monitor.h"

#include "service/backend_sync/inventory_nodes.h"
#include "service/control/metering.h"
#include "service/control/node_conditions.h"
#include "service/control/policy_installation.h"

namespace allot {

std::vector<NodeHealthReport> HealthMonitor::check_if_due() {
  if (checker_ == nullptr || clock_.now() < next_due_) return {};
  std::vector<std::string> names;
  {
    ReaderLock lock(cluster_.mutex());
    if (const auto& compiled = cluster_.view().policy.compiled()) {
      for (const CompiledNode& node : compiled->nodes()) names.push_back(node.node.name);
    }
  }
  std::vector<NodeHealthReport> reports = checker_->check(names);
  backend_states_ = checker_->backend_states();
  inventory_ = checker_->inventory();
  next_due_ = clock_.now() + interval_;
  return reports;
}

bool HealthMonitor::apply(const std::vector<NodeHealthReport>& reports, Timestamp now,
                          ServerState& state, WriteBatch& batch) {
  for (const NodeHealthReport& report : reports) {
    const auto found = backend_states_.find(report.node);
    if (found == backend_states_.end()) continue;
    NodeState& node = state.nodes[report.node];
    node.backend_state = found->second.state;
    node.backend_reason = found->second.reason;
  }
  const bool nodes_changed = adopt_inventory_nodes(state, now, batch);
  const std::vector<NodeHealthReport> changed = apply_health_reports(reports, now, state, batch);
  for (const NodeHealthReport& report : changed) {
    if (report.healthy) {
      logger_.info("node healthy again: uncordoned if its health check cordoned it",
                   {{"node", report.node}});
    } else {
      logger_.warn("node unhealthy: cordoned, its work is requeued",
                   {{"node", report.node}, {"reason", report.reason}});
    }
  }
  return !changed.empty() || nodes_changed;
}

bool HealthMonitor::adopt_inventory_nodes(ServerState& state, Timestamp now, WriteBatch& batch) {
  if (!inventory_) return false;
  InventoryNodes found = policy_inventory_nodes(state.policy.policy(), *inventory_);
  inventory_.reset();  // one round, one look
  if (found.nodes == state.policy.backend_nodes()) return false;
  Result<PolicyState> next = state.policy.with_backend_nodes(std::move(found.nodes));
  if (!next.ok()) {
    logger_.warn("cannot take the backend's nodes into the policy",
                 {{"error", next.status().to_string()}});
    return false;
  }
  logger_.info("nodes read from the backend",
               {{"nodes", std::to_string(next->backend_nodes().size())}});
  for (const std::string& unmatched : found.unmatched) {
    logger_.warn("a backend node has no flavor of the policy", {{"node", unmatched}});
  }
  // Metering's capacity follows the nodes (idle capacity counts them), in
  // the batch of this round, as a policy change records it.
  MeteringChanges metering = metering_changes(state.metering, next->policy(), next->backend_nodes(),
                                              next->compiled().get(), now);
  put_metering_changes(metering, batch);
  apply_metering_changes(std::move(metering), state.metering);
  install_policy(state, std::move(next).value());
  return true;
}

}  // namespace allot
