// Whether a reclaim that keeps Kueue's per-team bound could make room now for
// an owed workload: the guarantee tracker's test of which violated cycles the
// scheduler could have served (guarantee_tracker.h, class kReclaimable).
//
// "Now" is after the cycle's plan: its admissions hold their nodes (and count
// in their teams' usage: a borrowing one may be taken back), and the victims
// its preemptions chose hold theirs until they stop (none may be taken again).
// So room that the plan gave to other work within its team's nominal (owed
// too) is not room this workload was denied.
//
// The bound (classic preemption, victim_selector.h): a reclaim takes another
// team's work only while that team still uses more than its nominal quota. A
// set S of a team's workloads can be taken, in the order that takes the most
// (smallest first, largest last), exactly when sum(S) - max(S) < the team's
// GPUs above its nominal. The sets allowed are closed under taking fewer.
//
// The search (exhaustive, primary resource only): the workload's pods, largest
// first, each on a schedulable node of its flavor, where the node's free amount
// plus what a bounded set of victims running there frees holds it; victims are
// running (not stopping) workloads of other teams above their nominal; a victim
// with pods on several nodes frees all of them; a pod's node choices follow the
// previous pod's of the same size (no permutations). Once placed, the cohort's
// free quota (AfterPlan::quota_free: a flat cohort lending all) plus the
// victims' GPUs must hold the workload's request; any further victim needed
// for that is taken, within the bound, largest first.
// Deliberately not judged (Philly's policies need none of it): priorities,
// minRuntime, withinTeam preemption, cohorts below the root. The room held for
// other workloads is room_for()'s (after_plan.h): no drained node of another,
// no room promised to another in a handover, as for the scheduler.
// The search stops after kMaxBoundedReclaimSteps node or victim-set trials; it
// then answers true (the cycle counts as one the scheduler should have served).
//
// Contract: pure function of its arguments.
#pragma once

#include <cstdint>
#include <vector>

#include "base/quantity.h"
#include "scheduler/plan.h"
#include "scheduler/snapshot.h"
#include "service/simulation/after_plan.h"

namespace allot {

struct GuaranteeNode;

inline constexpr int64_t kMaxBoundedReclaimSteps = 200000;

// `after`: the cycle's work once its plan is carried out; `room`: per node,
// what `workload` may use before any work (after_plan.h: room_for);
// `nominal`: per TeamIndex, of `primary`; `nodes` by NodeIndex; `flavors`: the
// owed team's, for a pod set that requires none.
bool fits_by_bounded_reclaim(const AfterPlan& after, std::vector<int64_t> room,
                             const PendingWorkload& workload, const std::vector<int64_t>& nominal,
                             const std::vector<GuaranteeNode>& nodes,
                             const std::vector<FlavorIndex>& flavors, Resource primary);

}  // namespace allot
