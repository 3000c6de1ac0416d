// ReleaseTimeline: when running work is expected to give its capacity back,
// from each admitted workload's declared maxRuntime (work without one never
// counts as released). Used for reservations and estimated start times.
//
// Contract: built once per cycle from the snapshot; read-only afterwards.
#pragma once

#include <cstdint>
#include <vector>

#include "base/quantity.h"
#include "base/time.h"
#include "scheduler/snapshot.h"

namespace allot {

class ReleaseTimeline {
 public:
  ReleaseTimeline(const std::vector<AdmittedWorkload>& admitted, int32_t flavor_count,
                  int32_t node_count, Timestamp now);

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
  [[nodiscard]] Timestamp when_released(FlavorIndex flavor, Resource resource,
                                        int64_t amount) const;

 private:
  struct FlavorRelease {
    Timestamp at;
    ResourceVector cumulative;
  };
  std::vector<std::vector<PodRelease>> by_node_;
  std::vector<std::vector<FlavorRelease>> by_flavor_;
};

}  // namespace allot
