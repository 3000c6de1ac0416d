#include "service/control/health_monitor.h"

#include "service/control/node_conditions.h"

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
  return !changed.empty();
}

}  // namespace allot
