// Activity over time: how many things were in a state per time bucket, as a
// mean (the dashboard's Tasks chart: workloads pending and running; Signals:
// signals firing), and the spans those counts are made of.
//
// Contract: pure. The buckets are [from + i*bucket, from + (i+1)*bucket) for
// i < count; a bucket's value is the mean number of spans open in it (their
// time in it / its length), so a workload pending for half of a bucket
// counts 0.5. An open span (no end) lasts past the last bucket.
// - workload_activity_spans(): a workload runs (admitted or running:
//   holding quota) over each of its runs (an admission to the release of
//   its quota; the last may be open), and is pending from its creation to
//   its first run, between two runs (preempted or evicted, queued again,
//   admitted again), and after its last run from the run's end while it
//   waits for admission now (open) or until it finished (cancelled while
//   queued again). Never admitted: pending from creation to its finish (or
//   open). A Space suspended between two runs counts as pending meanwhile.
// - firing_spans(): a signal fires from each "fired" event to the next
//   "resolved"; one whose oldest kept event is "resolved" was firing since
//   before anything kept (the span starts at Timestamp{}); one whose last
//   event is "fired" is firing still (open).
// REQUIRES: bucket > 0, count >= 0; `events` oldest first; `runs` by start,
// each closed but the last.
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

// What the Tasks chart knows of one workload.
struct WorkloadHistory {
  Timestamp created;
  std::vector<CountSpan> runs;  // by start: the metering ledger's allocations
  std::optional<Timestamp> finished;
  bool waiting = false;  // waits for admission now (Pending, Preempted)

  friend bool operator==(const WorkloadHistory&, const WorkloadHistory&) = default;
};

struct WorkloadSpans {
  std::vector<CountSpan> pending;
  std::vector<CountSpan> running;

  friend bool operator==(const WorkloadSpans&, const WorkloadSpans&) = default;
};

WorkloadSpans workload_activity_spans(const WorkloadHistory& history);

struct SignalChange {
  Timestamp at;
  bool fired = false;  // else resolved
};

std::vector<CountSpan> firing_spans(const std::vector<SignalChange>& events);

}  // namespace allot
