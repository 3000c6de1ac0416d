#include "backends/local/gpu_sampler.h"

#include <chrono>
#include <utility>

namespace allot::local {
namespace {

// One GPU's reading, or why it has none.
Result<GpuReading> read_sampled_gpu(const NvmlLibrary& nvml, uint32_t index, Timestamp at) {
  ALLOT_ASSIGN_OR_RETURN(const NvmlLibrary::Device device, nvml.device(index));
  ALLOT_ASSIGN_OR_RETURN(std::string uuid, nvml.uuid(device));
  ALLOT_ASSIGN_OR_RETURN(const NvmlUtilization rates, nvml.utilization(device));
  GpuReading reading;
  reading.index = static_cast<int32_t>(index);
  reading.uuid = std::move(uuid);
  reading.utilization = static_cast<double>(rates.gpu_percent) / 100.0;
  if (const Result<NvmlMemory> memory = nvml.memory(device); memory.ok()) {
    reading.memory_used_bytes = static_cast<int64_t>(memory->used_bytes);
    reading.memory_total_bytes = static_cast<int64_t>(memory->total_bytes);
  }
  reading.at = at;
  return reading;
}

}  // namespace

GpuSampler::GpuSampler(const char* library, const Clock& clock, Duration interval)
    : clock_(clock), interval_(interval) {
  Result<std::unique_ptr<NvmlLibrary>> opened = NvmlLibrary::open(library);
  if (opened.ok()) {
    nvml_ = std::move(*opened);
  } else {
    reason_ = opened.status().message();
  }
}

GpuSampler::~GpuSampler() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void GpuSampler::start() {
  if (interval_.ms() <= 0 || nvml_ == nullptr || thread_.joinable()) return;
  thread_ = std::thread([this] { run(); });
}

void GpuSampler::run() {
  for (;;) {
    sample_now();
    std::unique_lock lock(mu_);
    wake_.wait_for(lock, std::chrono::milliseconds(interval_.ms()), [this] { return stopping_; });
    if (stopping_) return;
  }
}

void GpuSampler::sample_now() {
  if (nvml_ == nullptr) return;
  const Timestamp at = clock_.now();
  std::vector<GpuReading> readings;
  std::string reason;
  const Result<uint32_t> count = nvml_->count();
  if (!count.ok()) reason = count.status().message();
  for (uint32_t i = 0; count.ok() && i < *count; ++i) {
    Result<GpuReading> reading = read_sampled_gpu(*nvml_, i, at);
    if (reading.ok()) {
      readings.push_back(std::move(*reading));
    } else if (reason.empty()) {
      reason = "GPU " + std::to_string(i) + ": " + reading.status().message();
    }
  }
  std::lock_guard lock(mu_);
  latest_ = std::move(readings);
  reason_ = std::move(reason);
}

std::vector<GpuReading> GpuSampler::latest() const {
  std::lock_guard lock(mu_);
  return latest_;
}

std::string GpuSampler::reason() const {
  std::lock_guard lock(mu_);
  return reason_;
}

}  // namespace allot::local
