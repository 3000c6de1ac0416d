#include "scheduler/release_timeline.h"

#include <algorithm>

namespace allot {
namespace {

bool earlier(const ReleaseTimeline::PodRelease& a, const ReleaseTimeline::PodRelease& b) {
  return a.at < b.at;
}

}  // namespace

ReleaseTimeline::ReleaseTimeline(const std::vector<AdmittedWorkload>& admitted,
                                 int32_t flavor_count, int32_t node_count, Timestamp now)
    : now_(now),
      by_node_(node_count),
      flavor_events_(flavor_count),
      by_flavor_(flavor_count),
      dirty_(flavor_count, true) {
  for (const AdmittedWorkload& w : admitted) {
    if (w.max_runtime == Duration::max()) continue;
    const Timestamp end = std::max(w.admitted_at + w.max_runtime, now);
    for (size_t s = 0; s < w.assignment.size(); ++s) {
      for (const PodPlacement& pod : w.assignment[s].pods) {
        by_node_[pod.node.value()].push_back({end, w.pod_sets[s].per_pod});
      }
    }
    flavor_events_[w.flavor.value()].push_back({end, w.usage()});
  }
  for (auto& releases : by_node_) std::stable_sort(releases.begin(), releases.end(), earlier);
}

void ReleaseTimeline::add(Timestamp end, FlavorIndex flavor,
                          std::span<const PodSetRequest> pod_sets,
                          std::span<const PodSetAssignment> assignment) {
  if (end == Timestamp::infinite_future()) return;
  end = std::max(end, now_);
  ResourceVector total;
  for (size_t s = 0; s < assignment.size(); ++s) {
    for (const PodPlacement& pod : assignment[s].pods) {
      auto& releases = by_node_[pod.node.value()];
      const PodRelease release{end, pod_sets[s].per_pod};
      releases.insert(std::upper_bound(releases.begin(), releases.end(), release, earlier),
                      release);
      total += pod_sets[s].per_pod;
    }
  }
  flavor_events_[flavor.value()].push_back({end, total});
  dirty_[flavor.value()] = true;
}

void ReleaseTimeline::rebuild_cumulative(int32_t flavor) {
  auto& events = flavor_events_[flavor];
  std::stable_sort(events.begin(), events.end(), earlier);
  auto& cumulative = by_flavor_[flavor];
  cumulative.clear();
  ResourceVector running;
  for (const PodRelease& e : events) {
    running += e.amount;
    cumulative.push_back({e.at, running});
  }
  dirty_[flavor] = false;
}

Timestamp ReleaseTimeline::when_released(FlavorIndex flavor, Resource resource, int64_t amount) {
  if (dirty_[flavor.value()]) rebuild_cumulative(flavor.value());
  const auto& events = by_flavor_[flavor.value()];
  auto it = std::partition_point(events.begin(), events.end(), [&](const FlavorRelease& e) {
    return e.cumulative[resource] < amount;
  });
  return it == events.end() ? Timestamp::infinite_future() : it->at;
}

}  // namespace allot
