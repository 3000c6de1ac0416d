#include "accounting/hardware_series.h"

#include <algorithm>
#include <utility>

namespace allot {
namespace {

// The buckets' times and what is added up in them, in GPU-milliseconds.
struct HardwareGrid {
  Timestamp from;
  Duration bucket;
  int32_t count = 0;
  std::vector<Period> missing;  // by start, clipped to the grid
};

// Calls add(i, ms) for each bucket i that [start, end) overlaps, with the
// overlap's length, leaving out the missing-data periods.
template <typename Add>
void for_each_hardware_overlap(const HardwareGrid& grid, Timestamp start,
                               std::optional<Timestamp> end, Add add) {
  const Timestamp end_all = grid.from + grid.bucket * grid.count;
  const Period whole{std::max(start, grid.from), std::min(end.value_or(end_all), end_all)};
  if (whole.from >= whole.to) return;
  for (const Period& piece : subtract_periods(whole, grid.missing)) {
    for (int64_t i = (piece.from - grid.from).ms() / grid.bucket.ms(); i < grid.count; ++i) {
      const Timestamp lo = std::max(piece.from, grid.from + grid.bucket * i);
      const Timestamp hi = std::min(piece.to, grid.from + grid.bucket * (i + 1));
      if (lo >= hi) break;
      add(static_cast<size_t>(i), static_cast<double>((hi - lo).ms()));
    }
  }
}

// Each bucket's length less what the missing-data periods leave of it, so
// that overlapping periods are counted once.
std::vector<double> hardware_missing_ms(const HardwareGrid& grid) {
  const auto length = static_cast<double>(grid.bucket.ms());
  std::vector<double> missing(static_cast<size_t>(grid.count), length);
  for_each_hardware_overlap(grid, grid.from, std::nullopt,
                            [&missing](size_t i, double ms) { missing[i] -= ms; });
  return missing;
}

}  // namespace

std::vector<GpuSpan> unhealthy_spans(double gpus, const std::vector<HealthChangeAt>& changes,
                                     bool healthy_now) {
  std::vector<GpuSpan> spans;
  std::optional<Timestamp> since;
  if (!changes.empty() && changes.front().healthy) since = Timestamp{};
  for (const HealthChangeAt& change : changes) {
    if (!change.healthy && !since) since = change.at;
    if (change.healthy && since) {
      spans.push_back({gpus, *since, change.at});
      since.reset();
    }
  }
  if (!healthy_now) spans.push_back({gpus, since.value_or(Timestamp{}), std::nullopt});
  return spans;
}

std::vector<HardwareBucket> hardware_series(const HardwareLedger& ledger, Timestamp from,
                                            Duration bucket, int32_t count) {
  HardwareGrid grid{from, bucket, std::max(count, 0), ledger.missing};
  std::sort(grid.missing.begin(), grid.missing.end(),
            [](const Period& a, const Period& b) { return a.from < b.from; });
  const auto n = static_cast<size_t>(grid.count);
  std::vector<double> allocated(n, 0.0);
  std::vector<double> capacity(n, 0.0);
  std::vector<double> unhealthy(n, 0.0);
  std::vector<double> measured(n, 0.0);
  std::vector<double> busy(n, 0.0);
  auto adder = [](std::vector<double>& into, double gpus) {
    return [&into, gpus](size_t i, double ms) { into[i] += gpus * ms; };
  };
  for (const AllocationInterval& a : ledger.allocations) {
    const auto gpus = static_cast<double>(a.own[Resource::kGpu] + a.borrowed[Resource::kGpu]);
    for_each_hardware_overlap(grid, a.start, a.end, adder(allocated, gpus));
  }
  for (const CapacityInterval& c : ledger.capacity) {
    const auto gpus = static_cast<double>(c.capacity[Resource::kGpu]);
    for_each_hardware_overlap(grid, c.start, c.end, adder(capacity, gpus));
  }
  for (const GpuSpan& s : ledger.unhealthy) {
    for_each_hardware_overlap(grid, s.from, s.to, adder(unhealthy, s.gpus));
  }
  for (const UtilizationInterval& u : ledger.utilization) {
    for_each_hardware_overlap(grid, u.start, u.end, adder(measured, 1.0));
    const double fraction = static_cast<double>(u.utilization_ppm) / 1e6;
    for_each_hardware_overlap(grid, u.start, u.end, adder(busy, fraction));
  }
  const std::vector<double> missing = hardware_missing_ms(grid);
  const auto length = static_cast<double>(bucket.ms());
  std::vector<HardwareBucket> series(n);
  for (size_t i = 0; i < n; ++i) {
    HardwareBucket& b = series[i];
    b.missing = std::min(1.0, missing[i] / length);
    const double known = length - missing[i];
    if (known <= 0) continue;
    b.allocated = allocated[i] / known;
    b.unhealthy = unhealthy[i] / known;
    b.free = std::max(0.0, capacity[i] / known - b.allocated);
    if (measured[i] > 0) b.utilization = busy[i] / measured[i];
  }
  return series;
}

}  // namespace allot
