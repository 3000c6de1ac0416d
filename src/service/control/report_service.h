// ReportService: usage reports from the metering ledger (DESIGN.md section 6):
// GPU-, CPU- and memory-GiB-hours, own vs borrowed, priced by the versioned
// rate cards, with idle capacity separate or shared, over [from, to).
//
// Contract: reads only: the allocation intervals from the store, the rate
// cards, capacity and missing-data periods from memory, the nominal quotas
// from the applied policy. The period ends at the earlier of `to` and now
// (nothing is counted in the future). Visibility (the RBAC resource
// `reports`, verb `get`): a caller who may get reports everywhere (a
// cluster-admin) sees every team and the cluster's idle line; a caller who
// may get them in some namespaces sees only those namespaces' teams' rows
// (and their idle shares), never another team's; anyone else is
// kPermissionDenied. Thread-safe.
#pragma once

#include <vector>

#include "accounting/backend_usage_comparison.h"
#include "accounting/usage_report.h"
#include "backends/executor.h"
#include "base/clock.h"
#include "base/result.h"
#include "model/principal.h"
#include "service/control/cluster_state.h"

namespace allot {

struct UsageReportRequest {
  Timestamp from;
  Timestamp to;
  std::vector<GroupKey> by = {GroupKey::kTeam};
  IdleMode idle = IdleMode::kSeparate;
};

// The report and the rate cards it was priced with.
struct UsageReportResult {
  UsageReport report;
  RateCard rates;
};

class ReportService {
 public:
  ReportService(ClusterState& cluster, Executor& executor, const Clock& clock)
      : cluster_(cluster), executor_(executor), clock_(clock) {}

  [[nodiscard]] Result<UsageReportResult> usage(const Principal& caller,
                                                const UsageReportRequest& request) const;
  // The report of `query` as it stands (its visible_teams, no caller): for
  // rooms that decide visibility themselves (metrics_service.h). `to` is
  // clipped to now; kInvalidArgument when the period is then empty.
  [[nodiscard]] Result<UsageReportResult> report(UsageQuery query) const;
  // The metered GPU time per team beside the backend's (see the contract).
  [[nodiscard]] Result<BackendUsageComparison> backend_usage(const Principal& caller,
                                                             Timestamp from, Timestamp to) const;

 private:
  // Which teams' rows the caller may see: none given means all.
  [[nodiscard]] Result<std::optional<std::set<TeamId>>> visible_teams(
      const Principal& caller) const;

  // The policy's teams, by name; only `visible` ones when given.
  [[nodiscard]] std::vector<TeamId> teams_of_policy(
      const std::optional<std::set<TeamId>>& visible) const;

  ClusterState& cluster_;
  Executor& executor_;
  const Clock& clock_;
};

}  // namespace allot
