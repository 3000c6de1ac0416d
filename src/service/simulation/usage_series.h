// Usage series: one team's allocated primary resource over time, as the mean
// allocation in equal time buckets, for charts (the HTML report of a trace
// replay draws GPUs used against nominal).
//
// Contract: pure function. The series has at most `points` buckets spanning
// [from, to]; each point is (bucket start in virtual seconds, mean amount
// allocated during the bucket). Memory is bounded by `points`, whatever the
// length of the simulation. Empty when to <= from.
#pragma once

#include <cstddef>
#include <vector>

#include "base/time.h"
#include "service/simulation/simulation_metrics.h"
#include "service/simulation/simulation_report.h"

namespace allot {

inline constexpr size_t kUsageSeriesPoints = 500;

std::vector<UsagePoint> usage_series(const std::vector<const RunSegment*>& segments, Timestamp from,
                                     Timestamp to, size_t points = kUsageSeriesPoints);

}  // namespace allot
