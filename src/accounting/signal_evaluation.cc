#include "accounting/signal_evaluation.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>

namespace allot {
namespace {

using SeriesPoints = std::vector<std::pair<Timestamp, double>>;

const std::string* label_value(const MetricLabels& labels, std::string_view name) {
  for (const auto& [key, value] : labels) {
    if (key == name) return &value;
  }
  return nullptr;
}

// The values of every selected series within (now - window, now].
std::map<MetricLabels, SeriesPoints> range_of(const SeriesSelector& selector,
                                              const MetricHistory& history, Duration window) {
  std::map<MetricLabels, SeriesPoints> series;
  const Timestamp now = history.back().at;
  for (auto it = history.rbegin(); it != history.rend() && it->at > now - window; ++it) {
    for (const MetricPoint& point : it->points) {
      if (selects(selector, point)) series[point.labels].emplace_back(it->at, point.value);
    }
  }
  for (auto& [labels, points] : series) std::reverse(points.begin(), points.end());
  return series;
}

// Increase of a counter over its samples per second of their span.
std::optional<double> counter_rate(const SeriesPoints& points) {
  if (points.size() < 2) return std::nullopt;
  double increase = 0;
  for (size_t i = 1; i < points.size(); ++i) {
    const double delta = points[i].second - points[i - 1].second;
    increase += delta >= 0 ? delta : points[i].second;  // a reset restarts from 0
  }
  const double span = (points.back().first - points.front().first).secs();
  if (span <= 0) return std::nullopt;
  return increase / span;
}

double mean(const SeriesPoints& points) {
  double sum = 0;
  for (const auto& [at, value] : points) sum += value;
  return sum / static_cast<double>(points.size());
}

double bucket_bound(const std::string& le) {
  if (le == "+Inf") return std::numeric_limits<double>::infinity();
  double bound = std::numeric_limits<double>::quiet_NaN();
  std::from_chars(le.data(), le.data() + le.size(), bound);
  return bound;
}

// Prometheus' bucketQuantile: the rank's bucket, linear within it; the
// highest finite bound when the rank falls in +Inf.
std::optional<double> bucket_quantile(double q, std::vector<std::pair<double, double>> buckets) {
  std::sort(buckets.begin(), buckets.end());
  if (buckets.size() < 2 || !std::isinf(buckets.back().first)) return std::nullopt;
  const double total = buckets.back().second;
  if (!(total > 0)) return std::nullopt;
  const double rank = q * total;
  size_t b = 0;
  while (b < buckets.size() && buckets[b].second < rank) ++b;
  if (b >= buckets.size() - 1) return buckets[buckets.size() - 2].first;
  const double start = b == 0 ? std::min(0.0, buckets[0].first) : buckets[b - 1].first;
  const double below = b == 0 ? 0 : buckets[b - 1].second;
  const double count = buckets[b].second - below;
  if (count <= 0) return buckets[b].first;
  return start + (buckets[b].first - start) * ((rank - below) / count);
}

std::vector<SignalMatch> quantiles(double q, const std::map<MetricLabels, double>& rates) {
  std::map<MetricLabels, std::vector<std::pair<double, double>>> groups;
  for (const auto& [labels, rate] : rates) {
    const std::string* le = label_value(labels, "le");
    if (le == nullptr) continue;
    MetricLabels rest;
    for (const auto& pair : labels) {
      if (pair.first != "le") rest.push_back(pair);
    }
    groups[rest].emplace_back(bucket_bound(*le), rate);
  }
  std::vector<SignalMatch> out;
  for (auto& [labels, buckets] : groups) {
    if (const std::optional<double> value = bucket_quantile(q, std::move(buckets))) {
      out.push_back({labels, *value});
    }
  }
  return out;
}

// The query's value per series before the comparison.
std::vector<SignalMatch> values_of(const SignalQuery& query, const MetricHistory& history) {
  std::vector<SignalMatch> out;
  if (query.function == RangeFunction::kNone) {
    for (const MetricPoint& point : history.back().points) {
      if (selects(query.selector, point)) out.push_back({point.labels, point.value});
    }
    return out;
  }
  std::map<MetricLabels, double> values;
  for (const auto& [labels, points] : range_of(query.selector, history, query.window)) {
    if (query.function == RangeFunction::kAvgOverTime) {
      values[labels] = mean(points);
    } else if (const std::optional<double> rate = counter_rate(points)) {
      values[labels] = *rate;
    }
  }
  if (query.quantile) return quantiles(*query.quantile, values);
  for (auto& [labels, value] : values) out.push_back({labels, value});
  return out;
}

bool compares(double value, Comparison op, double threshold) {
  switch (op) {
    case Comparison::kGreater: return value > threshold;
    case Comparison::kGreaterEqual: return value >= threshold;
    case Comparison::kLess: return value < threshold;
    case Comparison::kLessEqual: return value <= threshold;
    case Comparison::kEqual: return value == threshold;
    case Comparison::kNotEqual: return value != threshold;
  }
  return false;
}

}  // namespace

bool selects(const SeriesSelector& selector, const MetricPoint& point) {
  if (point.name != selector.metric) return false;
  for (const LabelMatcher& m : selector.matchers) {
    const std::string* value = label_value(point.labels, m.label);
    const bool equal = (value != nullptr ? *value : std::string()) == m.value;
    if (equal != m.equal) return false;
  }
  return true;
}

std::vector<SignalMatch> evaluate_signal(const SignalQuery& query, const MetricHistory& history) {
  if (history.empty()) return {};
  std::vector<SignalMatch> out;
  for (SignalMatch& match : values_of(query, history)) {
    if (!std::isnan(match.value) && compares(match.value, query.comparison, query.threshold)) {
      out.push_back(std::move(match));
    }
  }
  return out;
}

bool signal_has_data(const SignalQuery& query, const MetricHistory& history) {
  if (history.empty()) return false;
  const std::vector<MetricPoint>& newest = history.back().points;
  return std::any_of(newest.begin(), newest.end(),
                     [&](const MetricPoint& point) { return selects(query.selector, point); });
}

SignalTransition step_signal(SignalTracker& tracker, std::vector<SignalMatch> matches,
                             Duration for_duration, Timestamp now) {
  const bool holds = !matches.empty();
  tracker.matches = std::move(matches);
  if (!tracker.since) tracker.since = now;
  if (!holds) {
    tracker.holding_since.reset();
    if (tracker.state == SignalState::kInactive) return SignalTransition::kNone;
    const bool was_firing = tracker.state == SignalState::kFiring;
    tracker.state = SignalState::kInactive;
    tracker.since = now;
    return was_firing ? SignalTransition::kResolved : SignalTransition::kNone;
  }
  if (!tracker.holding_since) tracker.holding_since = now;
  if (tracker.state == SignalState::kFiring) return SignalTransition::kNone;
  if (now - *tracker.holding_since >= for_duration) {
    tracker.state = SignalState::kFiring;
    tracker.since = now;
    return SignalTransition::kFired;
  }
  if (tracker.state == SignalState::kInactive) {
    tracker.state = SignalState::kPending;
    tracker.since = now;
  }
  return SignalTransition::kNone;
}

std::string_view signal_state_name(SignalState state) {
  switch (state) {
    case SignalState::kInactive: return "inactive";
    case SignalState::kPending: return "pending";
    case SignalState::kFiring: return "firing";
  }
  return "inactive";
}

std::string labels_text(const MetricLabels& labels) {
  std::string out;
  for (const auto& [key, value] : labels) {
    out += (out.empty() ? "" : ",") + key + "=" + value;
  }
  return out;
}

}  // namespace allot
