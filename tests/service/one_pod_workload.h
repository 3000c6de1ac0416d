// Test helper: a running one-pod workload of `gpus` GPUs (the only resource
// set) on `node`, as the guarantee tracker's tests build their snapshots.
#pragma once

#include <cstdint>

#include "scheduler/snapshot.h"

namespace allot::testing {

inline AdmittedWorkload one_pod_running(uint64_t id, uint32_t team, int64_t gpus, uint32_t node) {
  AdmittedWorkload a;
  a.id = WorkloadId(id);
  a.team = TeamIndex(team);
  PodSetRequest pods;
  pods.per_pod[Resource::kGpu] = gpus;
  a.pod_sets.push_back(pods);
  a.assignment.push_back({1, {PodPlacement{NodeIndex(node), 0}}});
  return a;
}

}  // namespace allot::testing
