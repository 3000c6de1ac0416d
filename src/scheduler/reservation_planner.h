// ReservationPlanner: keeps large gangs from starving (DESIGN.md section 3).
//
// When a workload fits its quota but no nodes have room for all its pods, it
// gets the nodes that free up earliest (by the running work's declared
// maxRuntime), the same rack or block preferred when the times tie; from the
// moment the last of them frees up they are its alone, and until then only
// work that ends before that moment may use them (backfill).
//
// Contract: reserve() marks nodes in the CapacityIndex; it never takes
// capacity. Returns nothing when the start cannot be known (running work
// without maxRuntime on every candidate node).
#pragma once

#include <optional>

#include "scheduler/capacity_index.h"
#include "scheduler/plan.h"
#include "scheduler/release_timeline.h"

namespace allot {

std::optional<Reservation> reserve_for_gang(CapacityIndex& capacity,
                                            const ReleaseTimeline& timeline,
                                            const PendingWorkload& workload, FlavorIndex flavor,
                                            Timestamp now);

}  // namespace allot
