// ActivityTimeline: how many things were in a state over time, as a step
// function kept up to date change by change, so that the mean count per
// bucket of a range costs O(buckets x log changes), not a walk of every
// thing (the Tasks chart's index: service/control/workload_activity.h).
//
// Contract: pure value type. add(at, delta) changes the count from `at` on
// by `delta`: O(1) amortised at or after the latest change, O(log n + the
// changes after `at`) before it (a change made late, a deleted workload
// taken back); changes at one time are one point, and one that cancels out
// is dropped. add_means() gives the mean count over each
// bucket [from + i*bucket, from + (i+1)*bucket), i < count, as
// count_series() of the spans the changes came from (activity_series.h):
// a span [a, b) is add(a, +1) and add(b, -1); an open one only add(a, +1).
// REQUIRES: bucket > 0, count >= 0.
#pragma once

#include <cstdint>
#include <vector>

#include "base/time.h"

namespace allot {

class ActivityTimeline {
 public:
  void add(Timestamp at, int64_t delta);
  [[nodiscard]] bool empty() const { return points_.empty(); }

  // Adds the mean count over each of `count` buckets to `into` (resized to
  // `count` when smaller).
  void add_means(Timestamp from, Duration bucket, int32_t count, std::vector<double>& into) const;

  // The count just after `at` (the changes at or before it).
  [[nodiscard]] int64_t count_at(Timestamp at) const;

 private:
  struct Point {
    int64_t at_ms = 0;
    int64_t delta = 0;
    int64_t count = 0;     // after this point's change
    int64_t integral = 0;  // count x ms up to at_ms, from the first point
  };
  // The integral of the count from the first point up to `ms`.
  [[nodiscard]] int64_t integral_to(int64_t ms) const;
  // Recomputes count and integral from points_[first] on.
  void recount_from(size_t first);

  std::vector<Point> points_;  // by at_ms, one per time, none with delta 0
};

}  // namespace allot
