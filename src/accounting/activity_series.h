// Activity over time: how many things were in a state per time bucket, as a
// mean (the dashboard's Tasks chart: workloads pending and running; Signals:
// signals firing), and the spans those counts are made of.
//
// Contract: pure. The buckets are [from + i*bucket, from + (i+1)*bucket) for
// i < count; a bucket's value is the mean number of spans open in it (their
// time in it / its length), so a workload pending for half of a bucket
// counts 0.5. An open span (no end) lasts past the last bucket.
// - workload_spans(): a workload is pending from its creation to its first
//   admission (or its finish when never admitted, or open), and running
//   (admitted or running: holding quota) from its first admission to its
//   finish (or open). A workload preempted and queued again counts as
//   running until it finishes: only the first admission is recorded.
// - firing_spans(): a signal fires from each "fired" event to the next
//   "resolved"; one whose oldest kept event is "resolved" was firing since
//   before anything kept (the span starts at Timestamp{}); one whose last
//   event is "fired" is firing still (open).
// REQUIRES: bucket > 0, count >= 0; `events` oldest first.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "base/time.h"

namespace allot {

struct CountSpan {
  Timestamp from;
  std::optional<Timestamp> to;  // none: open

  friend bool operator==(const CountSpan&, const CountSpan&) = default;
};

// The mean number of `spans` open in each of `count` buckets.
std::vector<double> count_series(const std::vector<CountSpan>& spans, Timestamp from,
                                 Duration bucket, int32_t count);

struct WorkloadSpans {
  std::optional<CountSpan> pending;
  std::optional<CountSpan> running;
};

WorkloadSpans workload_spans(Timestamp created, const std::optional<Timestamp>& first_admitted,
                             const std::optional<Timestamp>& finished);

struct SignalChange {
  Timestamp at;
  bool fired = false;  // else resolved
};

std::vector<CountSpan> firing_spans(const std::vector<SignalChange>& events);

}  // namespace allot
