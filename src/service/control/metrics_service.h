// MetricsService: the snapshot GET /metrics renders (docs/metrics.md): quota
// and usage per team, flavor and resource (quota_usage.h), pending and
// admitted workloads, what ActivityMetrics recorded (admission waits,
// preemptions, scheduler cycles, HTTP requests), cost accrued this UTC month
// from the metering ledger, and the nodes.
//
// Contract: reads only. Visibility (the RBAC resource `metrics`, verb `get`):
// a caller who may get metrics everywhere (a cluster-admin) sees every team
// and the cluster's families (nodes, scheduler, server); a caller who may get
// them in some namespaces sees only those namespaces' teams' series, never
// another team's and nothing of the whole cluster. Budgets' series follow
// the API's rule for reading each Budget (budget_visibility.h): a caller
// who reads some budget but may get metrics nowhere (a Contract's owner)
// sees those budgets' series only; a budget the policy no longer holds is
// left out at once. Anyone else is kPermissionDenied. The GPUs' measured
// utilisation comes from the executor named by read_gpus_from() (none: not
// shown), filtered the same way: a team-scoped caller sees the GPUs its
// teams' pods hold, only a cluster-wide caller those no pod holds.
// Thread-safe.
#pragma once

#include <optional>
#include <set>

#include "backends/executor.h"
#include "base/clock.h"
#include "base/result.h"
#include "model/ids.h"
#include "model/principal.h"
#include "service/control/cluster_state.h"
#include "service/control/report_service.h"
#include "service/metrics/activity_metrics.h"
#include "service/metrics/metrics_snapshot.h"

namespace allot {

class MetricsService {
 public:
  MetricsService(ClusterState& cluster, const ReportService& reports,
                 const ActivityMetrics& activity, const Clock& clock)
      : cluster_(cluster), reports_(reports), activity_(activity), clock_(clock) {}

  [[nodiscard]] Result<MetricsSnapshot> snapshot(const Principal& caller) const;
  // REQUIRES: called before snapshot() is; `executor` outlives this.
  void read_gpus_from(Executor* executor) { executor_ = executor; }

 private:
  // The teams the caller may see; none: every team and the cluster.
  [[nodiscard]] Result<std::optional<std::set<TeamId>>> visible_teams(
      const Principal& caller) const;
  [[nodiscard]] Result<std::vector<TeamCost>> month_costs(
      const std::optional<std::set<TeamId>>& visible) const;

  ClusterState& cluster_;
  const ReportService& reports_;
  const ActivityMetrics& activity_;
  const Clock& clock_;
  Executor* executor_ = nullptr;
};

}  // namespace allot
