// GpuSampler: every GPU's measured utilisation and memory use, read through
// NVML (nvml_library.h) at an interval on its own thread; the latest
// reading is what the local executor attributes to the pods holding the
// GPUs (local_executor.h gpu_usage(), docs/metrics.md).
//
// Contract:
// - The constructor opens NVML once; when it cannot (no driver, a library
//   without the functions), reason() says why and nothing is ever read.
// - sample_now() reads every GPU once, stamped with the injected clock's
//   time, and replaces the latest reading; a GPU whose reading fails is left
//   out of it (reason() says why). Tests call it directly.
// - start() runs sample_now() at once and then every `interval` on a thread
//   of its own until the destructor (which stops and joins it). A zero
//   interval starts nothing.
// Thread-safe.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "backends/local/nvml_library.h"
#include "base/clock.h"
#include "base/time.h"

namespace allot::local {

struct GpuReading {
  int32_t index = 0;  // NVML index: the node's GPU index
  std::string uuid;
  double utilization = 0;  // 0..1 (NVML's percent / 100)
  int64_t memory_used_bytes = 0;
  int64_t memory_total_bytes = 0;
  Timestamp at;

  friend bool operator==(const GpuReading&, const GpuReading&) = default;
};

class GpuSampler {
 public:
  GpuSampler(const char* library, const Clock& clock, Duration interval);
  ~GpuSampler();
  GpuSampler(const GpuSampler&) = delete;
  GpuSampler& operator=(const GpuSampler&) = delete;

  void start();
  void sample_now();
  [[nodiscard]] std::vector<GpuReading> latest() const;
  // Why the latest reading misses GPUs, or there is none ("" when all read).
  [[nodiscard]] std::string reason() const;

 private:
  void run();

  const Clock& clock_;
  const Duration interval_;
  std::unique_ptr<NvmlLibrary> nvml_;  // null: NVML not available
  mutable std::mutex mu_;
  std::condition_variable wake_;
  bool stopping_ = false;           // guarded by mu_
  std::vector<GpuReading> latest_;  // guarded by mu_
  std::string reason_;              // guarded by mu_
  std::thread thread_;
};

}  // namespace allot::local
