#include "accounting/backend_reconciliation.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

namespace allot {
namespace {

// One workload's records, gathered.
struct ReconciledWorkload {
  const AllocationInterval* newest = nullptr;
  bool open = false;
  std::optional<Period> covered;  // its closed intervals and jobs, first start to last end
  bool covered_before = false;    // `made` holds a coverage entry of that span
  std::map<Timestamp, int64_t> difference;  // backend - counted GPUs, as changes at instants
  std::string job_ids;
};

void add_span(std::map<Timestamp, int64_t>& changes, Timestamp from, Timestamp to, int64_t gpus) {
  if (!(from < to) || gpus == 0) return;
  changes[from] += gpus;
  changes[to] -= gpus;
}

void widen(std::optional<Period>& covered, Timestamp from, Timestamp to) {
  if (!covered) {
    covered = Period{from, to};
    return;
  }
  covered->from = std::min(covered->from, from);
  covered->to = std::max(covered->to, to);
}

std::map<WorkloadId, ReconciledWorkload> gather_reconciled(
    const std::vector<AllocationInterval>& ledger, const std::vector<UsageAdjustment>& made,
    const std::vector<BackendJobRecord>& jobs) {
  std::map<WorkloadId, ReconciledWorkload> workloads;
  for (const BackendJobRecord& job : jobs) {
    ReconciledWorkload& w = workloads[job.workload];
    add_span(w.difference, job.start, job.end, job.gpus);
    widen(w.covered, job.start, job.end);
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
    widen(w.covered, a.start, *a.end);
  }
  for (const UsageAdjustment& m : made) {
    const auto found = workloads.find(m.workload);
    if (found == workloads.end()) continue;
    add_span(found->second.difference, m.span.from, m.span.to, -m.gpus);
    if (m.gpus == 0 && m.span == found->second.covered) found->second.covered_before = true;
  }
  return workloads;
}

void emit_reconciled(WorkloadId id, const ReconciledWorkload& w,
                     std::vector<UsageAdjustment>& out) {
  const AllocationInterval& newest = *w.newest;
  if (!w.covered_before) {
    out.push_back({id, newest.workload_name, newest.team, newest.user, newest.flavor, *w.covered, 0,
                   w.job_ids});
  }
  int64_t level = 0;
  Timestamp since;
  for (const auto& [at, change] : w.difference) {
    if (change == 0) continue;
    if (level != 0) {
      out.push_back({id,
                     newest.workload_name,
                     newest.team,
                     newest.user,
                     newest.flavor,
                     {since, at},
                     level,
                     w.job_ids});
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
