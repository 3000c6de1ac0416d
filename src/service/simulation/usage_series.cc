#include "service/simulation/usage_series.h"

#include <algorithm>
#include <cmath>

namespace allot {

// Each segment adds amount x overlap to the buckets it covers: partial overlap
// at its first and last bucket directly, the full buckets between them through
// a difference array, so a segment costs O(1) however long it ran.
std::vector<UsagePoint> usage_series(const std::vector<const RunSegment*>& segments, Timestamp from,
                                     Timestamp to, size_t points) {
  std::vector<UsagePoint> series;
  const int64_t span = (to - from).ms();
  if (span <= 0 || points == 0) {
    return series;
  }
  const size_t buckets = std::min<size_t>(points, static_cast<size_t>(span));
  const double width = static_cast<double>(span) / static_cast<double>(buckets);
  std::vector<double> area(buckets, 0.0);      // amount x ms
  std::vector<double> full(buckets + 1, 0.0);  // difference array of whole-bucket amounts
  const auto bucket_of = [&](double ms) {
    return std::min(buckets - 1, static_cast<size_t>(std::max(0.0, ms / width)));
  };
  for (const RunSegment* segment : segments) {
    const double start = static_cast<double>(std::max(segment->start.ms(), from.ms()) - from.ms());
    const double end = static_cast<double>(std::min(segment->end.ms(), to.ms()) - from.ms());
    if (end <= start) {
      continue;
    }
    const auto amount = static_cast<double>(segment->amount);
    const size_t first = bucket_of(start);
    const size_t last = bucket_of(end);
    if (first == last) {
      area[first] += amount * (end - start);
      continue;
    }
    area[first] += amount * (static_cast<double>(first + 1) * width - start);
    area[last] += amount * (end - static_cast<double>(last) * width);
    full[first + 1] += amount;
    full[last] -= amount;
  }
  double level = 0;
  series.reserve(buckets);
  for (size_t i = 0; i < buckets; ++i) {
    level += full[i];
    const double t_ms = static_cast<double>(from.ms()) + static_cast<double>(i) * width;
    series.push_back({t_ms / 1000.0, level + area[i] / width});
  }
  return series;
}

}  // namespace allot
