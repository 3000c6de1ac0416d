// ReservationSteps: when each node of a flavor can hold how many pods of one
// shape, for the reservation planner (reservation_planner.h).
//
// A node's steps say from when it holds how many pods (its free capacity now,
// then each release of the ReleaseTimeline); they only grow. ShapeSteps keeps
// the steps of every schedulable node of the flavor that ever holds a pod,
// and every step's change sorted by time, for one shape (per-pod size, pods
// wanted). Within a cycle, reservation after reservation reads the same
// nodes while nothing is admitted: ReservationSteps keeps, per flavor, each
// schedulable node's free capacity now and after each of its releases
// (FlavorFree: what every shape's steps are computed from, built once instead
// of summed again per gang), and the steps of the flavor's last shapes (up to
// 32 per flavor: a steady cycle at scale asks for about a dozen per flavor,
// its gangs' and single pods' shapes interleaved across flavors).
//
// Contract: what ReservationSteps keeps is valid only while the
// CapacityIndex's free capacity and the ReleaseTimeline it was built from do
// not change; ReservationSteps::forget() must be called whenever they do (an
// admission, work that stops at once), forget(flavor) when only nodes of that
// flavor changed. Reservations marked on nodes do not change it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "base/quantity.h"
#include "base/time.h"
#include "scheduler/capacity_index.h"
#include "scheduler/release_timeline.h"

namespace allot {

struct NodeStep {
  Timestamp at;  // from then on the node holds `pods` pods
  int32_t pods = 0;
};

// A node's steps for pods of `per_pod`, at most `cap`, appended to `steps`.
void append_node_steps(const CapacityIndex& capacity, const ReleaseTimeline& timeline,
                       NodeIndex node, const ResourceVector& per_pod, int32_t cap, Timestamp now,
                       std::vector<NodeStep>& steps);

// Per schedulable node of a flavor: its free capacity now, then after each of
// its releases (times no earlier than now), in the timeline's order.
class FlavorFree {
 public:
  struct Point {
    Timestamp at;
    ResourceVector free;
  };
  FlavorFree(const CapacityIndex& capacity, const ReleaseTimeline& timeline, FlavorIndex flavor,
             Timestamp now);

  [[nodiscard]] size_t size() const { return nodes_.size(); }
  [[nodiscard]] NodeIndex node(size_t k) const { return nodes_[k]; }
  [[nodiscard]] std::span<const Point> points(size_t k) const {
    return std::span<const Point>(points_).subspan(first_[k], first_[k + 1] - first_[k]);
  }

 private:
  std::vector<NodeIndex> nodes_;
  std::vector<uint32_t> first_;  // by node, where its points start; one more at the end
  std::vector<Point> points_;
};

class ShapeSteps {
 public:
  struct Change {
    Timestamp at;
    int32_t delta = 0;       // pods the candidate gains then (> 0)
    uint32_t candidate = 0;  // index among the nodes
  };

  ShapeSteps(const CapacityIndex& capacity, const FlavorFree& free, FlavorIndex flavor,
             const ResourceVector& per_pod, int32_t pods);

  [[nodiscard]] FlavorIndex flavor() const { return flavor_; }
  [[nodiscard]] bool is(FlavorIndex flavor, const ResourceVector& per_pod, int32_t pods) const {
    return flavor == flavor_ && pods == pods_ && per_pod == per_pod_;
  }
  // The nodes of the flavor (in the topology's order) that hold a pod at some time.
  [[nodiscard]] size_t size() const { return nodes_.size(); }
  [[nodiscard]] NodeIndex node(size_t candidate) const { return nodes_[candidate]; }
  [[nodiscard]] std::span<const NodeStep> steps(size_t candidate) const {
    return std::span<const NodeStep>(steps_).subspan(first_[candidate],
                                                     first_[candidate + 1] - first_[candidate]);
  }
  // Every candidate's step changes, earliest first.
  [[nodiscard]] const std::vector<Change>& changes() const { return changes_; }

 private:
  FlavorIndex flavor_;
  ResourceVector per_pod_;
  int32_t pods_ = 0;
  std::vector<NodeIndex> nodes_;
  std::vector<uint32_t> first_;  // by candidate, where its steps start; one more at the end
  std::vector<NodeStep> steps_;
  std::vector<Change> changes_;
};

class ReservationSteps {
 public:
  // The steps of the shape, built now unless kept since the last forget().
  const ShapeSteps& of(const CapacityIndex& capacity, const ReleaseTimeline& timeline,
                       FlavorIndex flavor, const ResourceVector& per_pod, int32_t pods,
                       Timestamp now);
  // Free capacity or the timeline changed: nothing kept holds.
  void forget() {
    shapes_.clear();
    flavors_.clear();
  }
  // Free capacity or the timeline changed only on nodes of `flavor` (an
  // admission, victims that stop at once): what is kept of other flavors
  // was built from nodes and releases that did not change, and still holds.
  void forget(FlavorIndex flavor) {
    if (flavor.value() < shapes_.size()) shapes_[flavor.value()].clear();
    if (flavor.value() < flavors_.size()) flavors_[flavor.value()].reset();
  }
  // How many requests were answered by kept steps (for tests).
  [[nodiscard]] int64_t reused() const { return reused_; }

 private:
  static constexpr size_t kMaxShapesPerFlavor = 32;
  std::vector<std::vector<ShapeSteps>> shapes_;     // by flavor, the most recently built last
  std::vector<std::optional<FlavorFree>> flavors_;  // by flavor, built when first needed
  int64_t reused_ = 0;
};

}  // namespace allot
