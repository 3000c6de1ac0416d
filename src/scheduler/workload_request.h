// Turns a user's Workload into the scheduler's PendingWorkload, checking it
// against the compiled policy.
//
// Contract: every problem a user can cause is a Status naming the field:
// unknown namespace/team, unknown or disallowed priority class, no pod sets,
// count < 1, minCount > count, a pod set flavor the team has no quota for,
// pod sets pinned to two different flavors (a workload runs on one flavor), a
// pod larger than every node of every flavor the team may use; a Space
// without a positive idleTimeoutSeconds, or another kind with one (only a
// Space is suspended when idle: docs/spaces.md).
// same_workload_requests() says whether two policies agree on everything
// make_pending_workload() reads, so that a policy change which keeps them
// (a quota, a cohort, a weight) need not recompile every live workload.
#pragma once

#include "base/result.h"
#include "model/workload.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/snapshot.h"

namespace allot {

Result<PendingWorkload> make_pending_workload(const CompiledPolicy& policy,
                                              const Workload& workload, WorkloadId id,
                                              Timestamp queued_at);

// True only when make_pending_workload() gives every workload the same
// answer (the same request, or the same error) under `a` as under `b`: the
// teams' names, namespaces, flavors and allowed classes, the priority
// classes' names and values, the flavors' names and the nodes' flavors and
// capacities are equal, index for index. Quotas, cohorts, weights,
// preemption settings and the cycle may differ. Keep it in step with what
// make_pending_workload() reads.
bool same_workload_requests(const CompiledPolicy& a, const CompiledPolicy& b);

}  // namespace allot
