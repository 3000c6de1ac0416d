// Test helper: the violation classes' two searches (guarantee_tracker.h's
// fits_without_borrowers, bounded_reclaim.h's fits_by_bounded_reclaim) asked
// of a snapshot and its plan. The work after the plan and the owed workload's
// room are built here as the tracker builds them once per cycle (after_plan.h).
#pragma once

#include <cstdint>
#include <vector>

#include "scheduler/plan.h"
#include "scheduler/snapshot.h"
#include "service/simulation/after_plan.h"
#include "service/simulation/bounded_reclaim.h"
#include "service/simulation/guarantee_tracker.h"

namespace allot::testing {

inline bool fits_without_borrowers(const Snapshot& snapshot, const Plan& plan,
                                   const PendingWorkload& workload,
                                   const std::vector<int64_t>& nominal,
                                   const std::vector<GuaranteeNode>& nodes,
                                   const std::vector<FlavorIndex>& flavors, Resource primary) {
  return allot::fits_without_borrowers(after_plan(snapshot, plan, nominal, primary),
                                       room_for(snapshot, plan, workload.id, nodes, primary),
                                       workload, nominal, nodes, flavors, primary);
}

inline bool fits_by_bounded_reclaim(const Snapshot& snapshot, const Plan& plan,
                                    const PendingWorkload& workload,
                                    const std::vector<int64_t>& nominal,
                                    const std::vector<GuaranteeNode>& nodes,
                                    const std::vector<FlavorIndex>& flavors, Resource primary) {
  return allot::fits_by_bounded_reclaim(after_plan(snapshot, plan, nominal, primary),
                                        room_for(snapshot, plan, workload.id, nodes, primary),
                                        workload, nominal, nodes, flavors, primary);
}

}  // namespace allot::testing
