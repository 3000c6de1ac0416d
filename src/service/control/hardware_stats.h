// HardwareStatsService: the cluster's GPUs allocated, free and unhealthy over
// a range in buckets, with the utilisation measured on them (the dashboard's
// Hardware chart, GET /api/v1/top/hardware, docs/api.md).
//
// Contract: reads only. The range and buckets are TeamStatsService's
// (parse_stats_range: 1h, 24h, 7d, 30d ending now). The figures are
// accounting/hardware_series.h's over the metering ledger (allocations,
// the flavors' healthy capacity, missing-data periods, measured utilisation)
// and the nodes' health histories (each node's GPUs while it was unhealthy;
// a node keeps its last kNodeHealthHistoryLength changes, so an older
// unhealthy spell counts from before the range when it is not closed by a
// change kept). Visibility: the caller must be allowed to list nodes (as
// the Hardware view itself; kPermissionDenied otherwise); the figures are
// aggregates of every team, naming none. Thread-safe.
#pragma once

#include <vector>

#include "accounting/hardware_series.h"
#include "base/clock.h"
#include "base/result.h"
#include "model/principal.h"
#include "service/control/cluster_state.h"
#include "service/control/team_stats.h"

namespace allot {

struct HardwareStatsView {
  StatsRange range;
  Timestamp from;
  Timestamp to;
  int64_t gpus = 0;                     // the GPUs of every node now
  std::vector<HardwareBucket> buckets;  // range.span / range.bucket of them
  std::vector<Period> missing;          // missing-data periods, clipped to [from, to)
};

class HardwareStatsService {
 public:
  HardwareStatsService(ClusterState& cluster, const Clock& clock)
      : cluster_(cluster), clock_(clock) {}

  [[nodiscard]] Result<HardwareStatsView> stats(const Principal& caller,
                                                const StatsRange& range) const;

 private:
  ClusterState& cluster_;
  const Clock& clock_;
};

// The missing-data periods `gaps` that overlap [from, to), clipped to it.
std::vector<Period> missing_in_range(const std::vector<Period>& gaps, Timestamp from, Timestamp to);

}  // namespace allot
