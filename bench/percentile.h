// Nearest-rank percentiles of the bench's latency samples.
//
// Contract: percentile(values, p) for p in (0, 100]; 0 for no values. Pure.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

namespace allot::bench {

inline double percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto rank = static_cast<size_t>(std::ceil(p / 100.0 * static_cast<double>(values.size())));
  return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

}  // namespace allot::bench
