#include "service/control/usage_reconciliation.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "accounting/backend_reconciliation.h"
#include "service/control/metering_state.h"
#include "service/control/server_state.h"

namespace allot {
namespace {

// The ledger's intervals that may belong to the jobs' workloads: those
// overlapping the jobs' spans, widened by a day (an admission long before
// Slurm started the job).
Result<std::vector<AllocationInterval>> reconciled_ledger(
    ClusterState& cluster, const std::vector<BackendJobRecord>& jobs) {
  Timestamp from = jobs.front().start;
  Timestamp to = jobs.front().end;
  for (const BackendJobRecord& job : jobs) {
    from = std::min(from, job.start);
    to = std::max(to, job.end);
  }
  const Duration margin = Duration::hours(24);
  ALLOT_ASSIGN_OR_RETURN(std::vector<AllocationRecord> records,
                         cluster.store().allocations((from - margin).ms(), (to + margin).ms()));
  std::vector<AllocationInterval> ledger;
  ledger.reserve(records.size());
  for (AllocationRecord& record : records) {
    ledger.push_back(allocation_interval_of(std::move(record)));
  }
  return ledger;
}

}  // namespace

Result<size_t> reconcile_usage_with_backend(ClusterState& cluster, Executor& executor) {
  ALLOT_ASSIGN_OR_RETURN(std::vector<BackendJobRecord> jobs, executor.accounted_jobs());
  if (jobs.empty()) return size_t{0};
  ALLOT_ASSIGN_OR_RETURN(std::vector<AllocationInterval> ledger, reconciled_ledger(cluster, jobs));
  std::vector<UsageAdjustment> made;
  WriteBatch batch;
  {
    ReaderLock lock(cluster.mutex());
    const std::vector<UsageAdjustment>& before = cluster.view().metering.adjustments;
    made = reconcile_with_backend(ledger, before, jobs);
    auto sequence = static_cast<int64_t>(before.size());
    for (const UsageAdjustment& a : made) {
      batch.put_objects.push_back(adjustment_object(a, sequence++));
    }
  }
  if (made.empty()) return size_t{0};
  ALLOT_RETURN_IF_ERROR(cluster.store().commit(std::move(batch)));
  WriterLock lock(cluster.mutex());
  std::vector<UsageAdjustment>& adjustments = cluster.state().metering.adjustments;
  adjustments.insert(adjustments.end(), made.begin(), made.end());
  return static_cast<size_t>(std::count_if(made.begin(), made.end(),
                                           [](const UsageAdjustment& a) { return a.gpus != 0; }));
}

}  // namespace allot
