#include "accounting/backend_reconciliation.h"

#include <map>
#include <utility>

namespace allot {
namespace {

// One workload's records, gathered.
struct ReconciledWorkload {
  const AllocationInterval* newest = nullptr;
  bool open = false;
  std::map<Timestamp, int64_t> difference;  // backend - counted GPUs, as changes at instants
  std::string job_ids;
};

void add_span(std::map<Timestamp, int64_t>& changes, Timestamp from, Timestamp to, int64_t gpus) {
  if (!(from < to) || gpus == 0) return;
  changes[from] += gpus;
  changes[to] -= gpus;
}

std::map<WorkloadId, ReconciledWorkload> gather_reconciled(
    const std::vector<AllocationInterval>& ledger, const std::vector<UsageAdjustment>& made,
    const std::vector<BackendJobRecord>& jobs) {
  std::map<WorkloadId, ReconciledWorkload> workloads;
  for (const BackendJobRecord& job : jobs) {
    ReconciledWorkload& w = workloads[job.workload];
    add_span(w.difference, job.start, job.end, job.gpus);
    w.job_ids += (w.job_ids.empty() ? "" : ",") + job.job_id;
  }
  for (const AllocationInterval& a : ledger) {
    const auto found = workloads.find(a.workload);
    if (found == workloads.end()) continue;
    ReconciledWorkload& w = found->second;
    if (!a.end) {
      w.open = true;
      continue;
    }
    if (w.newest == nullptr || !(a.start < w.newest->start)) w.newest = &a;
    add_span(w.difference, a.start, *a.end, -(a.own.gpu() + a.borrowed.gpu()));
  }
  for (const UsageAdjustment& m : made) {
    const auto found = workloads.find(m.workload);
    if (found != workloads.end())
      add_span(found->second.difference, m.span.from, m.span.to, -m.gpus);
  }
  return workloads;
}

void emit_reconciled(WorkloadId id, const ReconciledWorkload& w,
                     std::vector<UsageAdjustment>& out) {
  int64_t level = 0;
  Timestamp since;
  for (const auto& [at, change] : w.difference) {
    if (change == 0) continue;
    if (level != 0) {
      const AllocationInterval& a = *w.newest;
      out.push_back({id, a.workload_name, a.team, a.user, a.flavor, {since, at}, level, w.job_ids});
    }
    level += change;
    since = at;
  }
}

}  // namespace

std::vector<UsageAdjustment> reconcile_with_backend(const std::vector<AllocationInterval>& ledger,
                                                    const std::vector<UsageAdjustment>& made,
                                                    const std::vector<BackendJobRecord>& jobs) {
  std::vector<UsageAdjustment> out;
  for (const auto& [id, w] : gather_reconciled(ledger, made, jobs)) {
    if (w.open || w.newest == nullptr) continue;
    emit_reconciled(id, w, out);
  }
  return out;
}

}  // namespace allot
