// Where a promise (a Handover) puts its workload: within what one running
// workload holds on one node.
//
// Contract: pure functions of their arguments.
#pragma once

#include <cstdint>
#include <optional>

#include "base/quantity.h"
#include "scheduler/ids.h"
#include "scheduler/snapshot.h"

namespace allot {

// The node all of a workload's pods run on, with what they hold there.
struct OnOneNode {
  NodeIndex node;
  ResourceVector held;
  uint64_t gpus = 0;
};

// nullopt when `running` has pods on several nodes (or none).
std::optional<OnOneNode> on_one_node(const AdmittedWorkload& running);

// The lowest `count` GPUs of `mask` (all of them when it has fewer).
uint64_t lowest_gpus(uint64_t mask, int64_t count);

// The one-pod assignment of a pod needing `need` within `place`, on its
// lowest GPUs; nullopt when `place` does not hold that much.
std::optional<PodSetAssignment> promised_pod(const ResourceVector& need, const OnOneNode& place);

}  // namespace allot
