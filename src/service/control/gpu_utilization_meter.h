// GpuUtilizationMeter: turns the executor's measured GPU samples
// (Executor::gpu_usage(), model/gpu_usage_sample.h) into the ledger's
// utilisation intervals (store.h GpuUtilizationRecord), the efficiency that
// usage reports show beside cost (docs/cost.md).
//
// Contract:
// - record() looks at the samples of held GPUs (a workload's pod holds the
//   GPU), keyed by (workload, "node/gpu"). A key's first sample is its
//   baseline: nothing is counted. A later sample with a later `at` adds the
//   interval [previous at, at) at that sample's utilisation (NVML's reading
//   covers the time since its previous sample) and becomes the new baseline.
//   A sample whose `at` is not later (the same reading read again by a
//   second pass) adds nothing, so no second is counted twice. A gap longer
//   than kUtilizationMaxGap (the sampler stalled) counts nothing and starts
//   again from that sample. A key absent from the samples is forgotten (its
//   GPU was released; the next holder starts from a baseline).
// - In memory only: after an allotd restart each GPU starts from a new
//   baseline, so the time across the restart is never counted (it is missing
//   data anyway), let alone twice.
// - Times are the samples' (the executor's injected clock); utilisation is
//   stored in ppm, rounded to the nearest.
// Not thread-safe: the admission loop's pass is its only user.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/time.h"
#include "model/gpu_usage_sample.h"
#include "model/ids.h"
#include "store/store.h"

namespace allot {

// The longest time between two samples of a GPU that is counted.
inline constexpr Duration kUtilizationMaxGap = Duration::seconds(60);

class GpuUtilizationMeter {
 public:
  // Adds the intervals the samples close to batch.put_gpu_utilization.
  void record(const std::vector<GpuUsageSample>& samples, WriteBatch& batch);

 private:
  std::map<std::pair<WorkloadId, std::string>, Timestamp> last_;  // key -> baseline
};

}  // namespace allot
