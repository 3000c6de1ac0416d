// ReleaseTimeline: when running work is expected to give its capacity back,
// from each admitted workload's declared maxRuntime (work without one never
// counts as released). Used for reservations and estimated start times.
//
// Contract: built from the snapshot's admitted work; add() records work the
// current cycle admits, so that a gang blocked later in the same cycle sees
// it. Flavor totals are recomputed lazily after additions. Not thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/quantity.h"
#include "base/time.h"
#include "scheduler/snapshot.h"

namespace allot {

class ReleaseTimeline {
 public:
  ReleaseTimeline(const std::vector<AdmittedWorkload>& admitted, int32_t flavor_count,
                  int32_t node_count, Timestamp now);

  // Work admitted during the cycle that ends by `end` (infinite: never counted).
  void add(Timestamp end, FlavorIndex flavor, std::span<const PodSetRequest> pod_sets,
           std::span<const PodSetAssignment> assignment);

  struct PodRelease {
    Timestamp at;
    ResourceVector amount;
  };
  // Pods on a node, earliest release first.
  [[nodiscard]] const std::vector<PodRelease>& node_releases(NodeIndex node) const {
    return by_node_[node.value()];
  }
  // Earliest time by which `amount` of `resource` in the flavor has been
  // released, or infinite_future() if it never is.
  [[nodiscard]] Timestamp when_released(FlavorIndex flavor, Resource resource, int64_t amount);

 private:
  struct FlavorRelease {
    Timestamp at;
    ResourceVector cumulative;
  };
  void rebuild_cumulative(int32_t flavor);

  Timestamp now_;
  std::vector<std::vector<PodRelease>> by_node_;
  std::vector<std::vector<PodRelease>> flavor_events_;
  std::vector<std::vector<FlavorRelease>> by_flavor_;
  std::vector<bool> dirty_;
};

}  // namespace allot
