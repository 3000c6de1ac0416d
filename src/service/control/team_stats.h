// TeamStatsService: per team, the figures of the dashboard's Teams view
// beyond `top`: admission wait percentiles over a range, the fair-share
// figures the scheduler orders by, and GPU usage, borrowed and lent over the
// range in buckets (GET /api/v1/top/stats, docs/api.md).
//
// Contract: reads only. The range is one of 1h, 24h, 7d, 30d, ending now;
// its buckets are 1 minute, 1 hour, 6 hours and 1 day.
// - Wait percentiles are exact (nearest rank: the smallest observed wait
//   with at least q of the waits at or below it), over the workloads whose
//   first admission fell in the range, wait = first admission - creation:
//   the stored workload records as the activity index keeps them
//   (workload_activity.h: no walk), not /metrics' histogram (which has only
//   bucket bounds and counts since allotd started).
// - Fair share: the team's weight and its weighted dominant resource share
//   (scheduler/fair_share.h) of the usage now; `dominant` is the unweighted
//   fraction (share x weight / 1000); share is absent (infinite) for a weight
//   of 0 while borrowing.
// - The quota: the team's nominal GPUs in every flavor together, and its
//   ceiling (nominal + borrowing limit, every flavor it may use together;
//   none when any of them may borrow without limit), from the policy in force
//   now; and as it was at the end of each bucket, from the quota history
//   (quota_history.h; none before anything was recorded), to every caller
//   who sees the rows (the chart draws it as lines).
// - The series: accounting/usage_series.h over the metering ledger; the
//   missing-data periods (allotd was down) clipped to the range beside it,
//   to every caller (they name no team).
// Visibility follows the API: the rows are `top`'s (every team, to a caller
// who may list workloads somewhere; else kPermissionDenied), and the fair
// share is derived from the same numbers; the wait percentiles only for
// teams whose workloads the caller may list (they are derived from those
// workloads); the series only for teams whose usage reports it may get
// (ReportService's rule). Thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "accounting/usage_series.h"
#include "base/clock.h"
#include "base/result.h"
#include "model/principal.h"
#include "service/control/cluster_state.h"
#include "service/control/quota_history.h"

namespace allot {

struct StatsRange {
  std::string name;  // "1h", "24h", "7d", "30d"
  Duration span;
  Duration bucket;
};

// The range named `name`; kInvalidArgument naming `range` otherwise.
Result<StatsRange> parse_stats_range(const std::string& name);

struct WaitPercentiles {
  int64_t admitted = 0;  // workloads first admitted in the range
  double p50 = 0;        // seconds
  double p90 = 0;
  double p99 = 0;
};

// Nearest-rank percentiles of `waits` (seconds); zeros when empty.
WaitPercentiles wait_percentiles(std::vector<double> waits);

struct FairShareFigures {
  double weight = 1.0;
  std::optional<double> share;     // the scheduler's value; none: infinite
  std::optional<double> dominant;  // the largest borrowed / lendable fraction; with share
};

struct TeamStatsRow {
  std::string team;
  std::string cohort;
  FairShareFigures fair_share;
  int64_t nominal_gpus = 0;
  std::optional<int64_t> ceiling_gpus;  // nominal + borrowing limit; none: no limit
  // The quota in force at the end of each bucket; none: not recorded then.
  std::vector<std::optional<TeamQuotaGpus>> quota_series;
  std::optional<WaitPercentiles> wait;             // none: not visible
  std::optional<std::vector<UsageBucket>> series;  // none: not visible
};

struct TeamStatsView {
  StatsRange range;
  Timestamp from;
  Timestamp to;
  bool fair_sharing = false;  // a cluster orders by fair share
  std::vector<TeamStatsRow> teams;
  std::vector<Period> missing;  // missing-data periods, clipped to [from, to)
};

class TeamStatsService {
 public:
  TeamStatsService(ClusterState& cluster, const Clock& clock) : cluster_(cluster), clock_(clock) {}

  [[nodiscard]] Result<TeamStatsView> stats(const Principal& caller, const StatsRange& range) const;

 private:
  ClusterState& cluster_;
  const Clock& clock_;
};

}  // namespace allot
