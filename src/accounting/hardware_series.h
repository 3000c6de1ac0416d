// Hardware over time: the cluster's GPUs allocated, free and unhealthy per
// time bucket, and the utilisation measured on them (the Hardware view's
// chart, GET /api/v1/top/hardware).
//
// Contract: pure. The buckets are [from + i*bucket, from + (i+1)*bucket) for
// i < count. Each figure is a mean over the bucket's known time (its length
// less the missing-data periods in it: allotd was down, nothing is known):
// - allocated: the GPUs the allocation intervals held, every team together
//   (an aggregate: no team is named);
// - free: what the flavors' healthy nodes offered (the capacity intervals)
//   less the allocated GPUs, never below 0;
// - unhealthy: the GPUs of nodes while they were unhealthy (`unhealthy`);
// - utilization: the mean measured utilisation (0..1) of the GPU-time
//   measured in the bucket; none when nothing was measured in it;
// - missing: the fraction (0..1) of the bucket in a missing-data period; a
//   bucket with no known time has every other figure 0.
// An open span (no end) lasts past the last bucket.
// unhealthy_spans() turns one node's health changes into its unhealthy
// spans: from each change to unhealthy to the next change to healthy; a node
// unhealthy now, or whose oldest change kept is a recovery, was unhealthy
// since before anything kept (the span starts at Timestamp{}).
// REQUIRES: bucket > 0, count >= 0; `changes` oldest first.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "accounting/ledger.h"
#include "base/time.h"

namespace allot {

// `gpus` GPUs over [from, to); open while `to` is none.
struct GpuSpan {
  double gpus = 0;
  Timestamp from;
  std::optional<Timestamp> to;

  friend bool operator==(const GpuSpan&, const GpuSpan&) = default;
};

struct HealthChangeAt {
  Timestamp at;
  bool healthy = true;
};

std::vector<GpuSpan> unhealthy_spans(double gpus, const std::vector<HealthChangeAt>& changes,
                                     bool healthy_now);

struct HardwareLedger {
  std::vector<AllocationInterval> allocations;
  std::vector<CapacityInterval> capacity;
  std::vector<GpuSpan> unhealthy;
  std::vector<UtilizationInterval> utilization;
  std::vector<Period> missing;
};

struct HardwareBucket {
  double allocated = 0;
  double free = 0;
  double unhealthy = 0;
  std::optional<double> utilization;
  double missing = 0;

  friend bool operator==(const HardwareBucket&, const HardwareBucket&) = default;
};

std::vector<HardwareBucket> hardware_series(const HardwareLedger& ledger, Timestamp from,
                                            Duration bucket, int32_t count);

}  // namespace allot
