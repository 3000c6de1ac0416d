#include "scheduler/reservation_steps.h"

#include <algorithm>

namespace allot {
namespace {

// How many pods of `per_pod` fit in `free`, at most `cap`.
int32_t pods_in(const ResourceVector& free, const ResourceVector& per_pod, int32_t cap) {
  int32_t pods = 0;
  while (pods < cap && (per_pod * (pods + 1)).fits_in(free)) ++pods;
  return pods;
}

// The same, without a vector product per pod (the hot loop of ShapeSteps).
int32_t pods_in_fast(const ResourceVector& free, const ResourceVector& per_pod, int32_t cap) {
  int64_t pods = cap;
  for (const Resource r : kAllResources) {
    if (free[r] < 0) return 0;  // nothing fits, not even a pod that asks none of it
    if (per_pod[r] > 0) pods = std::min(pods, free[r] / per_pod[r]);
  }
  return static_cast<int32_t>(std::max<int64_t>(pods, 0));
}

}  // namespace

void append_node_steps(const CapacityIndex& capacity, const ReleaseTimeline& timeline,
                       NodeIndex node, const ResourceVector& per_pod, int32_t cap, Timestamp now,
                       std::vector<NodeStep>& steps) {
  ResourceVector free = capacity.free(node);
  int32_t pods = pods_in(free, per_pod, cap);
  if (pods > 0) steps.push_back({now, pods});
  for (const auto& release : timeline.node_releases(node)) {
    if (pods == cap) break;
    free += release.amount;
    const int32_t more = pods_in(free, per_pod, cap);
    if (more > pods) steps.push_back({std::max(release.at, now), pods = more});
  }
}

FlavorFree::FlavorFree(const CapacityIndex& capacity, const ReleaseTimeline& timeline,
                       FlavorIndex flavor, Timestamp now) {
  for (NodeIndex node : capacity.topology().nodes_of_flavor(flavor)) {
    if (!capacity.schedulable(node)) continue;
    nodes_.push_back(node);
    first_.push_back(static_cast<uint32_t>(points_.size()));
    ResourceVector free = capacity.free(node);
    points_.push_back({now, free});
    for (const auto& release : timeline.node_releases(node)) {
      free += release.amount;
      points_.push_back({std::max(release.at, now), free});
    }
  }
  first_.push_back(static_cast<uint32_t>(points_.size()));
}

// append_node_steps() from a node's kept free capacity over time.
ShapeSteps::ShapeSteps(const CapacityIndex& capacity, const FlavorFree& free, FlavorIndex flavor,
                       const ResourceVector& per_pod, int32_t pods)
    : flavor_(flavor), per_pod_(per_pod), pods_(pods) {
  const CompiledPolicy& policy = capacity.policy();
  for (size_t k = 0; k < free.size(); ++k) {
    const NodeIndex node = free.node(k);
    if (!per_pod.fits_in(policy.node(node).node.capacity)) continue;
    const size_t first = steps_.size();
    const std::span<const FlavorFree::Point> points = free.points(k);
    // Free capacity only grows along the points (releases give back), so the
    // last point holds the most pods: the walk stops once that many are held.
    const int32_t most = pods_in_fast(points.back().free, per_pod, pods);
    if (most == 0) continue;
    int32_t held = pods_in_fast(points[0].free, per_pod, pods);
    if (held > 0) steps_.push_back({points[0].at, held});
    for (size_t p = 1; p < points.size() && held < most; ++p) {
      const int32_t more = pods_in_fast(points[p].free, per_pod, pods);
      if (more > held) steps_.push_back({points[p].at, held = more});
    }
    if (steps_.size() == first) continue;
    nodes_.push_back(node);
    first_.push_back(static_cast<uint32_t>(first));
  }
  first_.push_back(static_cast<uint32_t>(steps_.size()));
  changes_.reserve(steps_.size());
  for (uint32_t c = 0; c < nodes_.size(); ++c) {
    int32_t before = 0;
    for (const NodeStep& s : steps(c)) {
      changes_.push_back({s.at, s.pods - before, c});
      before = s.pods;
    }
  }
  // Stable: equal times stay in node order (any order gives the same crossing
  // time, every delta being positive, but a fixed one is easier to reason on).
  std::stable_sort(changes_.begin(), changes_.end(),
                   [](const Change& a, const Change& b) { return a.at < b.at; });
}

const ShapeSteps& ReservationSteps::of(const CapacityIndex& capacity,
                                       const ReleaseTimeline& timeline, FlavorIndex flavor,
                                       const ResourceVector& per_pod, int32_t pods, Timestamp now) {
  if (shapes_.empty()) shapes_.resize(capacity.policy().flavor_count());
  std::vector<ShapeSteps>& shapes = shapes_[flavor.value()];
  for (const ShapeSteps& shape : shapes) {
    if (shape.is(flavor, per_pod, pods)) {
      ++reused_;
      return shape;
    }
  }
  if (flavors_.empty()) flavors_.resize(capacity.policy().flavor_count());
  std::optional<FlavorFree>& free = flavors_[flavor.value()];
  if (!free) free.emplace(capacity, timeline, flavor, now);
  if (shapes.size() >= kMaxShapesPerFlavor) shapes.erase(shapes.begin());
  return shapes.emplace_back(capacity, *free, flavor, per_pod, pods);
}

}  // namespace allot
