// Usage reconciliation: metering brought in line with the backend's own
// accounting (issue 13, item 4; docs/cost.md "Reconciliation with the
// backend's accounting"). Reads the backend's ended jobs
// (Executor::accounted_jobs(): Slurm's sacct), outside every lock, and the
// ledger's intervals around them (the store); stores the adjustments that
// accounting/backend_reconciliation.h says make the ledger agree, with each
// newly reconciled workload's coverage entry, in one commit, and only then
// adds them to MeteringState (reports count them from then on). Nothing in
// the ledger is rewritten; a run that finds them agreeing and covered stores
// nothing.
//
// Contract: one call at a time (allotd's reconciliation thread); returns how
// many adjustments it stored, the coverage entries (gpus 0) not counted; an
// error when the backend's accounting or the store cannot be read (nothing
// is stored then).
#pragma once

#include <cstddef>

#include "backends/executor.h"
#include "base/result.h"
#include "service/control/cluster_state.h"

namespace allot {

Result<size_t> reconcile_usage_with_backend(ClusterState& cluster, Executor& executor);

}  // namespace allot
