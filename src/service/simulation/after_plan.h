// AfterPlan: the work on the nodes once a cycle's plan is carried out, as the
// guarantee tracker's violation classes judge it (guarantee_tracker.h): the
// snapshot's admitted work and the plan's admissions, each with the room it
// holds, and the teams' usage with those admissions. Built once per cycle
// for every owed workload the classes judge.
//
// Room for one owed workload (room_for): each schedulable node's capacity of
// the primary resource, less what the plan holds for other workloads: a node
// it keeps drained (a reservation with no start) is no room at all, and the
// room it promises in a handover (victims stopping for another workload) is
// taken out. A gang's reservation with a start is not judged.
//
// Contract: pure functions of their arguments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/quantity.h"
#include "scheduler/plan.h"
#include "scheduler/snapshot.h"

namespace allot {

struct GuaranteeNode;

struct HeldWork {
  size_t team = 0;
  int64_t amount = 0;                            // of the primary resource, all its pods
  std::vector<std::pair<size_t, int64_t>> pods;  // node (by NodeIndex), amount there
  bool open = false;  // a reclaim may take it: not stopping, not a victim of the plan
};

struct AfterPlan {
  std::vector<HeldWork> work;  // the snapshot's admitted work, then the plan's admissions
  std::vector<int64_t> usage;  // per TeamIndex, of the primary resource, with the admissions
  int64_t quota_free = 0;      // the cohort's (it lends all that is idle): nominal less usage
};

// REQUIRES: nominal covers every team index in `snapshot`.
AfterPlan after_plan(const Snapshot& snapshot, const Plan& plan,
                     const std::vector<int64_t>& nominal, Resource primary);

// Per node, the room `owed` may use before any work is placed (-1: none).
std::vector<int64_t> room_for(const Snapshot& snapshot, const Plan& plan, WorkloadId owed,
                              const std::vector<GuaranteeNode>& nodes, Resource primary);

}  // namespace allot
