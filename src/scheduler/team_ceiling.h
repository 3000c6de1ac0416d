// Team ceilings: the most each team may ever hold of each governed
// flavor-resource, when nothing else is admitted: its nominal quota plus what
// its cohorts can lend it within its borrowingLimit (Kueue's "potential
// available"). A backend that enforces limits of its own (Slurm's GrpTRES, a
// Kubernetes ResourceQuota; backends/policy_sync.h) must allow at least this,
// so that it never refuses what allot may admit, and need allow no more.
//
// Contract: one entry per governed flavor-resource, in flavor then resource
// order; a flavor-resource that no quota declares is ungoverned and has no
// entry (no ceiling). Pure; deterministic.
#pragma once

#include <cstdint>
#include <vector>

#include "base/quantity.h"
#include "scheduler/compiled_policy.h"

namespace allot {

struct ResourceCeiling {
  FlavorIndex flavor;
  Resource resource = Resource::kGpu;
  int64_t amount = 0;  // in the resource's base unit (milli-CPU, bytes, GPUs)

  friend bool operator==(const ResourceCeiling&, const ResourceCeiling&) = default;
};

std::vector<ResourceCeiling> team_ceiling(const CompiledPolicy& policy, TeamIndex team);

}  // namespace allot
