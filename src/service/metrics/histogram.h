// Histogram: counts of observations in buckets with fixed upper bounds, the
// shape of a Prometheus histogram (le buckets, _sum, _count).
//
// Contract: a value type. `bounds` are ascending upper bounds; `counts` has
// one entry per bound and a last one for +Inf, each the number of
// observations in that bucket alone (not cumulative: the renderer sums).
// observe() puts a value in the first bucket whose bound is >= the value.
// Not thread-safe (ActivityMetrics guards its histograms).
#pragma once

#include <cstdint>
#include <vector>

namespace allot {

class Histogram {
 public:
  Histogram() = default;
  // REQUIRES: bounds ascending.
  explicit Histogram(std::vector<double> bounds);

  void observe(double value);

  [[nodiscard]] const std::vector<double>& bounds() const { return bounds_; }
  [[nodiscard]] const std::vector<uint64_t>& counts() const { return counts_; }
  [[nodiscard]] double sum() const { return sum_; }
  [[nodiscard]] uint64_t count() const { return count_; }

  friend bool operator==(const Histogram&, const Histogram&) = default;

 private:
  std::vector<double> bounds_;
  std::vector<uint64_t> counts_ = {0};
  double sum_ = 0;
  uint64_t count_ = 0;
};

// Seconds a workload waits for admission: 1 s to a week.
std::vector<double> admission_wait_bounds();
// Seconds a scheduling cycle takes: 1 ms to 10 s.
std::vector<double> cycle_duration_bounds();
// Admissions in one cycle: 0 to 1,000.
std::vector<double> admissions_per_cycle_bounds();
// Seconds an HTTP request takes: 1 ms to 10 s.
std::vector<double> request_duration_bounds();

}  // namespace allot
