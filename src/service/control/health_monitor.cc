#include "service/control/health_monitor.h"

#include <iostream>

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
  next_due_ = clock_.now() + interval_;
  return reports;
}

bool HealthMonitor::apply(const std::vector<NodeHealthReport>& reports, Timestamp now,
                          ServerState& state, WriteBatch& batch) {
  const std::vector<NodeHealthReport> changed = apply_health_reports(reports, now, state, batch);
  for (const NodeHealthReport& report : changed) {
    std::cerr << "allotd: node " << report.node << " is "
              << (report.healthy ? "healthy again" : "unhealthy: " + report.reason) << "\n";
  }
  return !changed.empty();
}

}  // namespace allot
