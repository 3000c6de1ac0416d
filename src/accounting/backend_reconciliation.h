// Backend reconciliation (issue 13, item 4): allot's metering ledger beside
// the backend scheduler's own accounting of the same work (Slurm's sacct),
// and the explicit adjustment entries that bring the ledger's GPU time to
// what the backend recorded (docs/cost.md, docs/slurm.md).
//
// Contract: pure and deterministic.
// - A BackendJobRecord (model/backend_job_record.h) is one ended job of a
//   workload as the backend accounted it: its span [start, end) and the GPUs
//   it held (sacct's Start, End and AllocTRES gres/gpu).
// - A UsageAdjustment is a signed GPU amount over a span for one workload:
//   positive where the backend ran it and the ledger did not count it (a job
//   that ran on while allotd was down, an end later than allot's), negative
//   where the ledger counted what the backend did not run (Slurm started the
//   job later than allot admitted it). The ledger's intervals are never
//   changed: reports count them plus the adjustments.
// - reconcile_with_backend() compares, per workload with backend jobs, the
//   GPUs its ledger intervals and the adjustments already made (`made`)
//   count at each instant with the GPUs its jobs held, and returns the
//   adjustments that make the two equal: one per maximal span of constant
//   difference, in (workload, start) order. So ledger + adjustments == the
//   backend's GPU time per workload, to the millisecond of the records, and
//   a run given its own result among `made` returns nothing (no second is
//   counted twice).
// - With them, unless `made` holds it already, one coverage entry per
//   reconciled workload: gpus 0 over the span its closed intervals and jobs
//   cover (first start to last end). Inside that span ledger + adjustments
//   is the backend's own record, so reports count it even where allotd was
//   down (usage_report.h).
// - A workload with an open allocation waits for a later run (it still
//   runs); so does one the ledger has no interval of (nothing to attribute
//   it to: team, user, flavor and name come from its newest interval).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "accounting/ledger.h"
#include "model/backend_job_record.h"
#include "model/ids.h"

namespace allot {

struct UsageAdjustment {
  WorkloadId workload;
  std::string workload_name;  // "namespace/name"
  TeamId team;
  std::string user;
  std::string flavor;
  Period span;
  int64_t gpus = 0;     // signed: + the backend ran it, - the ledger over-counted; 0: coverage
  std::string job_ids;  // the backend's jobs of the workload, comma-separated

  friend bool operator==(const UsageAdjustment&, const UsageAdjustment&) = default;
};

std::vector<UsageAdjustment> reconcile_with_backend(const std::vector<AllocationInterval>& ledger,
                                                    const std::vector<UsageAdjustment>& made,
                                                    const std::vector<BackendJobRecord>& jobs);

}  // namespace allot
