#include "scheduler/replica_scaling.h"

#include <algorithm>
#include <cmath>

#include "base/check.h"

namespace allot {

ReplicaScaler::ReplicaScaler(const EndpointSpec& spec) : spec_(spec) {
  ALLOT_CHECK(spec.min_replicas >= 0 && spec.min_replicas <= spec.max_replicas);
  ALLOT_CHECK(spec.scale_on == ScaleSignal::kExternal || spec.target > 0);
}

int32_t ReplicaScaler::clamp(double replicas) const {
  if (!(replicas >= spec_.min_replicas)) return spec_.min_replicas;  // NaN too
  if (replicas >= spec_.max_replicas) return spec_.max_replicas;
  return static_cast<int32_t>(std::ceil(replicas));
}

int32_t ReplicaScaler::recommend(double signal, int32_t current) const {
  switch (spec_.scale_on) {
    case ScaleSignal::kExternal: return clamp(signal);
    case ScaleSignal::kQueueDepth: return clamp(std::ceil(signal / spec_.target));
    case ScaleSignal::kCpu: return clamp(std::ceil(std::max(current, 1) * signal / spec_.target));
  }
  return spec_.min_replicas;
}

int32_t ReplicaScaler::observe(int32_t recommendation, Timestamp now) {
  recommendation = clamp(recommendation);
  if (spec_.scale_on == ScaleSignal::kExternal) {
    window_.clear();
    return recommendation;
  }
  if (!window_.empty() && now < window_.back().at) {
    return std::max_element(window_.begin(), window_.end(),
                            [](const auto& a, const auto& b) { return a.replicas < b.replicas; })
        ->replicas;
  }
  window_.push_back({now, recommendation});
  while (!window_.empty() && window_.front().at + spec_.scale_down_window <= now &&
         window_.size() > 1) {
    window_.pop_front();
  }
  int32_t desired = 0;
  for (const Reading& reading : window_) desired = std::max(desired, reading.replicas);
  return desired;
}

}  // namespace allot
