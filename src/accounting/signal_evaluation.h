// Signal evaluation (issue 14, item 5): a Signal's query (model/signal.h) over
// a history of metric samples, and the state it is in as time passes:
// inactive, pending (the condition holds, not yet for `for`), firing.
//
// Contract: pure and deterministic; time is the samples' own (the caller's
// clock). evaluate_signal() reads the history as Prometheus reads its TSDB,
// with two documented simplifications (docs/metrics.md, Signals): an instant
// selector reads the newest scrape only (a series absent from it is absent),
// and rate() is the increase between the first and last sample in the
// window (counter resets counted as restarts from 0) over their time span,
// without extrapolation to the window's edges; it needs two samples.
// histogram_quantile() interpolates linearly within the bucket, as
// Prometheus does. step_signal() is the state machine: the signal holds
// while any series matches; it fires once it has held without interruption
// for `for` and resolves when no series matches.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/time.h"
#include "model/signal.h"

namespace allot {

// Label pairs sorted by name (the metric name is not among them).
using MetricLabels = std::vector<std::pair<std::string, std::string>>;

struct MetricPoint {
  std::string name;
  MetricLabels labels;
  double value = 0;

  friend bool operator==(const MetricPoint&, const MetricPoint&) = default;
};

// Every sample of one scrape, at one instant.
struct MetricScrape {
  Timestamp at;
  std::vector<MetricPoint> points;
};

// Scrapes in ascending time.
using MetricHistory = std::deque<MetricScrape>;

// A series for which the condition holds, with its value.
struct SignalMatch {
  MetricLabels labels;
  double value = 0;

  friend bool operator==(const SignalMatch&, const SignalMatch&) = default;
};

// The series that satisfy `query` at the newest scrape of `history` (none for
// an empty history).
std::vector<SignalMatch> evaluate_signal(const SignalQuery& query, const MetricHistory& history);

// Whether the query's selector selects any series of the newest scrape,
// whatever its value (false for an empty history): a signal without data
// watches nothing, which lowers a contract's monitoring coverage.
bool signal_has_data(const SignalQuery& query, const MetricHistory& history);

// Whether `point` is of the selector's metric and satisfies its matchers (a
// label the point lacks reads as "", as in PromQL).
bool selects(const SeriesSelector& selector, const MetricPoint& point);

enum class SignalState : uint8_t { kInactive, kPending, kFiring };
enum class SignalTransition : uint8_t { kNone, kFired, kResolved };

struct SignalTracker {
  SignalState state = SignalState::kInactive;
  std::optional<Timestamp> since;          // when the current state began; none before a step
  std::optional<Timestamp> holding_since;  // the condition has held since, without interruption
  std::vector<SignalMatch> matches;        // at the last step

  friend bool operator==(const SignalTracker&, const SignalTracker&) = default;
};

// Advances `tracker` to `now` with the matches evaluated then.
SignalTransition step_signal(SignalTracker& tracker, std::vector<SignalMatch> matches,
                             Duration for_duration, Timestamp now);

std::string_view signal_state_name(SignalState state);  // "inactive", "pending", "firing"

// "team=research,flavor=h100": a series' labels for messages and tables.
std::string labels_text(const MetricLabels& labels);

}  // namespace allot
