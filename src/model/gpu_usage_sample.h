// GpuUsageSample: one GPU's measured utilisation at one moment, as a backend
// read it (backends/executor.h gpu_usage()), attributed to the pod that held
// the GPU then; what /metrics shows as allot_gpu_utilization_ratio
// (docs/metrics.md) and what "GPUs allocated but idle" is judged from.
#pragma once

#include <cstdint>
#include <string>

#include "base/time.h"
#include "model/ids.h"

namespace allot {

struct GpuUsageSample {
  std::string node;        // the node the GPU is on (the holding pod's node, else the backend's)
  int32_t gpu = 0;         // the GPU's index on its node
  std::string uuid;        // "GPU-...": empty when the backend does not know it
  std::string team;        // of the pod holding it; empty: no pod holds it
  WorkloadId workload;     // of the pod holding it (default-constructed: none)
  int32_t pod = -1;        // the holding pod's index; -1: none
  double utilization = 0;  // 0..1: the share of the last sample period a kernel ran
  int64_t memory_used_bytes = 0;
  int64_t memory_total_bytes = 0;
  Timestamp at;  // when it was read

  [[nodiscard]] bool held() const { return !team.empty(); }
  friend bool operator==(const GpuUsageSample&, const GpuUsageSample&) = default;
};

}  // namespace allot
