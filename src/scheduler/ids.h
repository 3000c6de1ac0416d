// Dense identifiers used inside the scheduler. Each indexes a vector of the
// CompiledPolicy (teams, cohorts, flavors, nodes, priority classes) except
// WorkloadId, which the caller assigns and which orders ties deterministically.
#pragma once

#include <cstdint>

#include "base/strong_id.h"
#include "model/ids.h"  // WorkloadId

namespace allot {

using TeamIndex = StrongId<struct TeamIndexTag>;
using CohortIndex = StrongId<struct CohortIndexTag>;
using FlavorIndex = StrongId<struct FlavorIndexTag, uint16_t>;
using NodeIndex = StrongId<struct NodeIndexTag>;
using PriorityClassIndex = StrongId<struct PriorityClassIndexTag, uint16_t>;

}  // namespace allot
