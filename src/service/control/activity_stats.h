// ActivityStatsService: counts over time for the dashboard's Tasks and
// Signals charts: the workloads pending and running per bucket (GET
// /api/v1/top/workloads) and the signals firing per bucket (GET
// /api/v1/top/signals), docs/api.md.
//
// Contract: reads only. The range and buckets are TeamStatsService's
// (parse_stats_range: 1h, 24h, 7d, 30d ending now); each figure is a mean
// over its bucket (accounting/activity_series.h).
// - Workloads: from each stored workload's creation, runs (each admission
//   to the release of its quota: a requeued workload is pending again until
//   admitted again) and finish, as the state's activity index keeps them
//   (workload_activity.h: O(teams x buckets x log changes) a request, no
//   walk of the workloads); deleted workloads are gone and not counted.
//   Visibility is the workload list's exactly (visible_namespaces on
//   "workloads"): only the namespaces the caller may list count, a `team`
//   filter keeps that team's workloads as the list's does, and a `namespace`
//   the caller may not list is kPermissionDenied. Counts only: nothing is
//   named.
// - Signals: from each signal's kept events (SignalsState::history; at most
//   kSignalHistoryKept each, so firing_spans()'s "since before anything
//   kept" applies). Readable by whoever may list signals (`list` on
//   signals), as GET /api/v1/signals; kPermissionDenied otherwise.
// The missing-data periods (allotd was down) clipped to the range go beside
// both. Thread-safe.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "model/principal.h"
#include "service/control/cluster_state.h"
#include "service/control/team_stats.h"

namespace allot {

struct ActivityStatsView {
  StatsRange range;
  Timestamp from;
  Timestamp to;
  // Each figure's name ("pending", "running"; "firing") and its buckets
  // (range.span / range.bucket of them).
  std::vector<std::pair<std::string, std::vector<double>>> series;
  std::vector<Period> missing;  // missing-data periods, clipped to [from, to)
};

struct WorkloadActivityQuery {
  std::string namespace_name;  // empty: every namespace the caller may list
  std::string team;            // empty: every team
};

class ActivityStatsService {
 public:
  ActivityStatsService(ClusterState& cluster, const Clock& clock)
      : cluster_(cluster), clock_(clock) {}

  [[nodiscard]] Result<ActivityStatsView> workloads(const Principal& caller,
                                                    const StatsRange& range,
                                                    const WorkloadActivityQuery& query) const;
  [[nodiscard]] Result<ActivityStatsView> signals(const Principal& caller,
                                                  const StatsRange& range) const;

 private:
  ClusterState& cluster_;
  const Clock& clock_;
};

}  // namespace allot
