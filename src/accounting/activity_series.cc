#include "accounting/activity_series.h"

#include <algorithm>

namespace allot {

std::vector<double> count_series(const std::vector<CountSpan>& spans, Timestamp from,
                                 Duration bucket, int32_t count) {
  std::vector<int64_t> ms(static_cast<size_t>(std::max(count, 0)), 0);
  const Timestamp end_all = from + bucket * count;
  for (const CountSpan& span : spans) {
    const Timestamp start = std::max(span.from, from);
    const Timestamp end = std::min(span.to.value_or(end_all), end_all);
    if (start >= end) continue;
    for (int64_t i = (start - from).ms() / bucket.ms(); i < count; ++i) {
      const Timestamp lo = std::max(start, from + bucket * i);
      const Timestamp hi = std::min(end, from + bucket * (i + 1));
      if (lo >= hi) break;
      ms[static_cast<size_t>(i)] += (hi - lo).ms();
    }
  }
  std::vector<double> mean;
  mean.reserve(ms.size());
  for (const int64_t m : ms) {
    mean.push_back(static_cast<double>(m) / static_cast<double>(bucket.ms()));
  }
  return mean;
}

WorkloadSpans workload_activity_spans(const WorkloadHistory& history) {
  WorkloadSpans spans;
  if (history.runs.empty()) {
    spans.pending.push_back(CountSpan{history.created, history.finished});
    return spans;
  }
  Timestamp waiting_since = history.created;
  for (const CountSpan& run : history.runs) {
    if (waiting_since < run.from) spans.pending.push_back(CountSpan{waiting_since, run.from});
    spans.running.push_back(run);
    if (run.to) waiting_since = *run.to;
  }
  const CountSpan& last = history.runs.back();
  if (!last.to) return spans;
  if (history.waiting) {
    spans.pending.push_back(CountSpan{*last.to, std::nullopt});
  } else if (history.finished && *history.finished > *last.to) {
    spans.pending.push_back(CountSpan{*last.to, *history.finished});
  }
  return spans;
}

std::vector<CountSpan> firing_spans(const std::vector<SignalChange>& events) {
  std::vector<CountSpan> spans;
  std::optional<Timestamp> since;
  bool first = true;
  for (const SignalChange& e : events) {
    if (e.fired) {
      if (!since) since = e.at;
    } else if (since) {
      spans.push_back(CountSpan{*since, e.at});
      since.reset();
    } else if (first) {
      spans.push_back(CountSpan{Timestamp{}, e.at});
    }
    first = false;
  }
  if (since) spans.push_back(CountSpan{*since, std::nullopt});
  return spans;
}

}  // namespace allot
