// Signal (issue 14, item 5): a condition over allot's own metrics that
// someone owns and answers, as Prometheus alerting rules are. The
// expression is a subset of PromQL (docs/metrics.md, Signals):
//
//   <metric>{label="v",label!="v"} OP threshold
//   rate(<counter>{...}[5m]) OP threshold
//   avg_over_time(<metric>{...}[1h]) OP threshold
//   histogram_quantile(0.95, rate(<histogram>_bucket{...}[1h])) OP threshold
//
// with OP one of > >= < <= == !=. api/signal_expression.h parses the text
// into a SignalQuery; accounting/signal_evaluation.h evaluates it over a
// history of metric samples.
//
// Contract: plain values. `expression` is the text as written (valid PromQL,
// which allot export prometheus-rules renders unchanged); `query` is its
// parsed form.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/time.h"
#include "model/object_meta.h"

namespace allot {

struct LabelMatcher {
  std::string label;
  bool equal = true;  // = (true) or != (false)
  std::string value;

  friend bool operator==(const LabelMatcher&, const LabelMatcher&) = default;
};

struct SeriesSelector {
  std::string metric;  // a sample name: allot_team_usage, allot_x_seconds_bucket
  std::vector<LabelMatcher> matchers;

  friend bool operator==(const SeriesSelector&, const SeriesSelector&) = default;
};

enum class RangeFunction : uint8_t { kNone, kRate, kAvgOverTime };
enum class Comparison : uint8_t { kGreater, kGreaterEqual, kLess, kLessEqual, kEqual, kNotEqual };

struct SignalQuery {
  SeriesSelector selector;
  RangeFunction function = RangeFunction::kNone;
  Duration window;                 // function != kNone
  std::optional<double> quantile;  // histogram_quantile(q, rate(m_bucket[w]))
  Comparison comparison = Comparison::kGreater;
  double threshold = 0;

  friend bool operator==(const SignalQuery&, const SignalQuery&) = default;
};

struct SignalResponse {
  std::string text;     // what the owner does when it fires
  std::string runbook;  // an http(s) URL; empty when none

  friend bool operator==(const SignalResponse&, const SignalResponse&) = default;
};

struct SignalSpec {
  std::string expression;
  SignalQuery query;
  Duration for_duration;  // how long the condition holds before it fires (0: at once)
  std::string owner;      // who answers it: a team, a person, an on-call rota
  SignalResponse response;
  std::string webhook;  // an http(s) URL firing and resolving are POSTed to; empty: none

  friend bool operator==(const SignalSpec&, const SignalSpec&) = default;
};

struct Signal {
  ObjectMeta meta;
  SignalSpec spec;

  friend bool operator==(const Signal&, const Signal&) = default;
};

}  // namespace allot
