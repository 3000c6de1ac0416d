// The PromQL subset of a Signal's expression (model/signal.h, docs/metrics.md
// Signals): one selector of an allot metric with = and != label matchers,
// optionally inside rate(...[w]) (counters and histogram parts),
// avg_over_time(...[w]) or histogram_quantile(q, rate(<h>_bucket[w])),
// compared with a number: `rate(allot_preemptions_total{team="ml"}[1h]) > 0`.
//
// Contract: pure. parse_signal_expression() returns the parsed query or an
// invalid_argument Status whose message starts "at character N of the
// expression: " (N counts from 1) and says why: an unknown metric or label,
// a function applied to the wrong kind of metric, a window outside
// (0, kMaxSignalWindow], a threshold out of the metric's range, text the
// subset does not have.
#pragma once

#include <string_view>

#include "base/result.h"
#include "base/time.h"
#include "model/signal.h"

namespace allot {

// The longest window of rate() and avg_over_time(): what allotd's sample
// history keeps (service/control/signal_monitor.h).
inline constexpr Duration kMaxSignalWindow = Duration::hours(24);

Result<SignalQuery> parse_signal_expression(std::string_view text);

}  // namespace allot
