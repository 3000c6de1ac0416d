#include "service/control/gpu_utilization_meter.h"

#include <cmath>
#include <set>

namespace allot {
namespace {

constexpr double kMeterPpm = 1'000'000.0;

int64_t meter_utilization_ppm(double utilization) {
  const double clamped = std::fmin(1.0, std::fmax(0.0, utilization));
  return std::llround(clamped * kMeterPpm);
}

}  // namespace

void GpuUtilizationMeter::record(const std::vector<GpuUsageSample>& samples, WriteBatch& batch) {
  std::set<std::pair<WorkloadId, std::string>> seen;
  for (const GpuUsageSample& sample : samples) {
    if (!sample.held() || !sample.workload.valid()) continue;
    std::pair key{sample.workload, sample.node + "/" + std::to_string(sample.gpu)};
    seen.insert(key);
    auto [it, first] = last_.try_emplace(key, sample.at);
    if (first || sample.at <= it->second) continue;
    const Timestamp previous = it->second;
    it->second = sample.at;
    if (sample.at - previous > kUtilizationMaxGap) continue;
    batch.put_gpu_utilization.push_back({sample.workload, key.second, previous.ms(), sample.at.ms(),
                                         meter_utilization_ppm(sample.utilization)});
  }
  std::erase_if(last_, [&](const auto& entry) { return !seen.contains(entry.first); });
}

}  // namespace allot
