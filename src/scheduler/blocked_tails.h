// expand_blocked_tails(): the workloads of a plan's blocked StrictFIFO tails
// (Plan::blocked_tails, written when SchedulerOptions::explain_blocked_tails
// is off) explained one by one again, as the scheduler explains them when it
// is on: kBlockedByStrictFifo, the workload's first flavor and its queue
// position, each tail at its place among the other explanations.
//
// Contract: `queues` was built or kept for the pending work of the snapshot
// the plan was made from (pending_queues.h). Estimated starts stay unset (as
// with SchedulerOptions::estimate_start_times off); every other field then
// equals the fully explained plan's (pending_queues_property_test checks it).
// Pure: no I/O, no clock.
#pragma once

#include "scheduler/pending_queues.h"
#include "scheduler/plan.h"

namespace allot {

void expand_blocked_tails(Plan& plan, const PendingQueues& queues);

}  // namespace allot
