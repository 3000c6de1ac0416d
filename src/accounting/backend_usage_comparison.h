// Backend usage comparison: allot's metered GPU time per team beside the
// backend's own report per account over the same whole hours (Slurm:
// `sreport cluster AccountUtilizationByUser`; issue 13, item 4; docs/cost.md
// "Reconciliation with the backend's accounting"). A team's account in the
// backend carries the team's name (backends/slurm/desired_accounting.h).
//
// Contract: pure. whole_hours_around() widens [from, to) to whole UTC hours,
// the only periods the backend's rollups hold: `from` down, `to` up to the
// hour; kInvalidArgument when from >= to. compare_backend_usage() gives one
// row per team of `teams`, in their order: allot's GPU time (own and
// borrowed, the backend adjustments included, as the usage report counts
// it) from `allot`, a usage report grouped by team alone, and the backend's
// GPU-seconds of the account of the same name (0 when the backend lists no
// such account: sreport prints none for an account that used nothing).
// Accounts that are not one of `teams` (allot's root and cohort accounts,
// accounts outside allot) are not rows. `counted_to` is where allot's
// figures end (the report's `to`, clipped to now): an hour still open has
// not been rolled up by the backend yet.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "accounting/usage_report.h"
#include "base/result.h"
#include "base/time.h"
#include "model/backend_account_usage.h"
#include "model/ids.h"

namespace allot {

struct HourWindow {
  Timestamp from;
  Timestamp to;
};

Result<HourWindow> whole_hours_around(Timestamp from, Timestamp to);

struct BackendUsageRow {
  TeamId team;
  int64_t allot_gpu_ms = 0;         // metered, adjustments included
  int64_t backend_gpu_seconds = 0;  // the backend's, for the team's account

  // allot's minus the backend's, in GPU-seconds.
  [[nodiscard]] double difference_gpu_seconds() const {
    return static_cast<double>(allot_gpu_ms) / 1000.0 - static_cast<double>(backend_gpu_seconds);
  }
  friend bool operator==(const BackendUsageRow&, const BackendUsageRow&) = default;
};

struct BackendUsageComparison {
  std::string source;    // the backend's report, as BackendUsage names it
  HourWindow window;     // the whole hours compared
  Timestamp counted_to;  // allot's figures end here: before window.to while the hour is open
  std::vector<BackendUsageRow> rows;
  BackendUsageRow totals;  // team empty: the rows' sums

  [[nodiscard]] bool hour_open() const { return counted_to < window.to; }
};

BackendUsageComparison compare_backend_usage(const UsageReport& allot, const BackendUsage& backend,
                                             const std::vector<TeamId>& teams);

}  // namespace allot
