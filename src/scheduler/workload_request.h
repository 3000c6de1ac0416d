// Turns a user's Workload into the scheduler's PendingWorkload, checking it
// against the compiled policy.
//
// Contract: every problem a user can cause is a Status naming the field:
// unknown namespace/team, unknown or disallowed priority class, no pod sets,
// count < 1, minCount > count, a pod set flavor the team has no quota for,
// pod sets pinned to two different flavors (a workload runs on one flavor), a
// pod larger than every node of every flavor the team may use.
#pragma once

#include "base/result.h"
#include "model/workload.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/snapshot.h"

namespace allot {

Result<PendingWorkload> make_pending_workload(const CompiledPolicy& policy,
                                              const Workload& workload, WorkloadId id,
                                              Timestamp queued_at);

}  // namespace allot
