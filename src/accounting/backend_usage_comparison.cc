#include "accounting/backend_usage_comparison.h"

#include <map>

namespace allot {
namespace {

constexpr int64_t kRollupHourMs = int64_t{3'600'000};

int64_t rollup_hour_floor(int64_t ms) {
  const int64_t rest = ms % kRollupHourMs;
  return ms - (rest < 0 ? rest + kRollupHourMs : rest);
}

}  // namespace

Result<HourWindow> whole_hours_around(Timestamp from, Timestamp to) {
  if (from >= to) return invalid_argument("the period is empty: `from` must be before `to`");
  const int64_t start = rollup_hour_floor(from.ms());
  int64_t end = rollup_hour_floor(to.ms());
  if (end < to.ms()) end += kRollupHourMs;
  return HourWindow{Timestamp::from_millis(start), Timestamp::from_millis(end)};
}

BackendUsageComparison compare_backend_usage(const UsageReport& allot, const BackendUsage& backend,
                                             const std::vector<TeamId>& teams) {
  std::map<std::string, int64_t> metered_ms;
  for (const UsageRow& row : allot.rows) {
    if (row.keys.empty()) continue;
    const PricedTime sum = row.figures.sum();
    // GPU-milliseconds: a GPU count x milliseconds, far inside int64 for a report's period.
    metered_ms[row.keys.front()] += static_cast<int64_t>((sum.own + sum.borrowed)[Resource::kGpu]);
  }
  std::map<std::string, int64_t> accounted;
  for (const BackendAccountUsage& account : backend.accounts) {
    accounted[account.account] += account.gpu_seconds;
  }
  BackendUsageComparison out;
  out.source = backend.source;
  out.window = HourWindow{backend.from, backend.to};
  out.counted_to = allot.query.to;
  for (const TeamId& team : teams) {
    BackendUsageRow row{team, metered_ms[team.str()], accounted[team.str()]};
    out.totals.allot_gpu_ms += row.allot_gpu_ms;
    out.totals.backend_gpu_seconds += row.backend_gpu_seconds;
    out.rows.push_back(std::move(row));
  }
  return out;
}

}  // namespace allot
