#include "service/metrics/histogram.h"

#include <algorithm>
#include <utility>

#include "base/check.h"

namespace allot {

Histogram::Histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)), counts_(bounds_.size() + 1, 0) {
  ALLOT_CHECK(std::is_sorted(bounds_.begin(), bounds_.end()));
}

void Histogram::observe(double value) {
  const auto bucket = std::lower_bound(bounds_.begin(), bounds_.end(), value) - bounds_.begin();
  ++counts_[static_cast<size_t>(bucket)];
  sum_ += value;
  ++count_;
}

std::vector<double> admission_wait_bounds() {
  return {1, 5, 15, 60, 300, 900, 3600, 4 * 3600, 12 * 3600, 86400, 3 * 86400, 7 * 86400};
}

std::vector<double> cycle_duration_bounds() {
  return {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10};
}

std::vector<double> admissions_per_cycle_bounds() { return {0, 1, 2, 5, 10, 20, 50, 100, 1000}; }

std::vector<double> request_duration_bounds() {
  return {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10};
}

}  // namespace allot
