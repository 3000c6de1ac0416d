// Steps of the snapshots that the scheduler's property tests build by hand:
// a plan's admissions carried into the snapshot it was made on.
#pragma once

#include <algorithm>

#include "scheduler/plan.h"
#include "scheduler/snapshot.h"

namespace allot::testing {

// Moves each workload the plan admits from `s.pending` to `s.admitted`,
// started at `s.now` with the plan's flavor and assignment. Every admitted
// workload must be pending in `s` (the plan was made on it).
inline void admit_planned(Snapshot& s, const Plan& plan) {
  for (const Admission& adm : plan.admissions) {
    const auto it = std::find_if(s.pending.begin(), s.pending.end(),
                                 [&](const PendingWorkload& p) { return p.id == adm.workload; });
    s.admitted.push_back(admitted_from(*it, adm.flavor, adm.assignment, s.now));
    s.pending.erase(it);
  }
}

}  // namespace allot::testing
