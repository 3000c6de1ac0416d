#include "accounting/activity_timeline.h"

#include <algorithm>

namespace allot {

void ActivityTimeline::recount_from(size_t first) {
  for (size_t i = first; i < points_.size(); ++i) {
    Point& p = points_[i];
    p.count = p.delta;
    p.integral = 0;
    if (i > 0) {
      const Point& last = points_[i - 1];
      p.count += last.count;
      p.integral = last.integral + last.count * (p.at_ms - last.at_ms);
    }
  }
}

void ActivityTimeline::add(Timestamp at, int64_t delta) {
  if (delta == 0) return;
  const int64_t ms = at.ms();
  if (points_.empty() || ms > points_.back().at_ms) {
    points_.push_back({ms, delta, 0, 0});
    return recount_from(points_.size() - 1);
  }
  const auto it = std::lower_bound(points_.begin(), points_.end(), ms,
                                   [](const Point& p, int64_t t) { return p.at_ms < t; });
  const auto index = static_cast<size_t>(it - points_.begin());
  if (it != points_.end() && it->at_ms == ms) {
    it->delta += delta;
    if (it->delta == 0) points_.erase(it);
  } else {
    points_.insert(it, Point{ms, delta, 0, 0});
  }
  recount_from(index);
}

int64_t ActivityTimeline::integral_to(int64_t ms) const {
  const auto after = std::upper_bound(points_.begin(), points_.end(), ms,
                                      [](int64_t t, const Point& p) { return t < p.at_ms; });
  if (after == points_.begin()) return 0;
  const Point& p = *(after - 1);
  return p.integral + p.count * (ms - p.at_ms);
}

int64_t ActivityTimeline::count_at(Timestamp at) const {
  const auto after = std::upper_bound(points_.begin(), points_.end(), at.ms(),
                                      [](int64_t t, const Point& p) { return t < p.at_ms; });
  return after == points_.begin() ? 0 : (after - 1)->count;
}

void ActivityTimeline::add_means(Timestamp from, Duration bucket, int32_t count,
                                 std::vector<double>& into) const {
  if (count <= 0) return;
  if (into.size() < static_cast<size_t>(count)) into.resize(static_cast<size_t>(count), 0.0);
  if (points_.empty()) return;
  int64_t lo = integral_to(from.ms());
  for (int32_t i = 0; i < count; ++i) {
    const int64_t hi = integral_to((from + bucket * (i + 1)).ms());
    into[static_cast<size_t>(i)] += static_cast<double>(hi - lo) / static_cast<double>(bucket.ms());
    lo = hi;
  }
}

}  // namespace allot
