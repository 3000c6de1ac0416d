#include "scheduler/release_timeline.h"

#include <algorithm>

namespace allot {

ReleaseTimeline::ReleaseTimeline(const std::vector<AdmittedWorkload>& admitted,
                                 int32_t flavor_count, int32_t node_count, Timestamp now)
    : by_node_(node_count), by_flavor_(flavor_count) {
  std::vector<std::vector<PodRelease>> flavor_events(flavor_count);
  for (const AdmittedWorkload& w : admitted) {
    Timestamp end = w.max_runtime == Duration::max() ? Timestamp::infinite_future()
                                                     : w.admitted_at + w.max_runtime;
    if (end < now) end = now;
    if (end == Timestamp::infinite_future()) continue;
    for (size_t s = 0; s < w.assignment.size(); ++s) {
      for (const PodPlacement& pod : w.assignment[s].pods) {
        by_node_[pod.node.value()].push_back({end, w.pod_sets[s].per_pod});
      }
    }
    flavor_events[w.flavor.value()].push_back({end, w.usage()});
  }
  auto earliest = [](const PodRelease& a, const PodRelease& b) { return a.at < b.at; };
  for (auto& releases : by_node_) std::stable_sort(releases.begin(), releases.end(), earliest);
  for (int32_t f = 0; f < flavor_count; ++f) {
    auto& events = flavor_events[f];
    std::stable_sort(events.begin(), events.end(), earliest);
    ResourceVector running;
    for (const PodRelease& e : events) {
      running += e.amount;
      by_flavor_[f].push_back({e.at, running});
    }
  }
}

Timestamp ReleaseTimeline::when_released(FlavorIndex flavor, Resource resource,
                                         int64_t amount) const {
  const auto& events = by_flavor_[flavor.value()];
  auto it = std::partition_point(events.begin(), events.end(), [&](const FlavorRelease& e) {
    return e.cumulative[resource] < amount;
  });
  return it == events.end() ? Timestamp::infinite_future() : it->at;
}

}  // namespace allot
