// The state after a plan's admissions have been carried out: the admitted
// workloads (started at `now`) and the workloads still pending.
//
// Contract: a pure function of its inputs; ignores the plan's preemptions and
// reservations (the scale test applies it to a pass without admitted work).
#pragma once

#include <vector>

#include "base/time.h"
#include "scheduler/plan.h"
#include "scheduler/snapshot.h"

namespace allot::bench {

struct AdmittedState {
  std::vector<AdmittedWorkload> admitted;
  std::vector<PendingWorkload> pending;  // in their original order
};

AdmittedState apply_admissions(const std::vector<PendingWorkload>& pending, const Plan& plan,
                               Timestamp now);

}  // namespace allot::bench
