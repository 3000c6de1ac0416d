// Unfit jobs: the jobs of a trace that can never start under a policy,
// found before the replay so that a planner sees them up front (with their
// trace lines) instead of as a silent "never admitted" count.
//
// Contract: a job (as trace_arrivals.h turns it into a gang: the same
// namespace prefix and gpus_per_node; jobs that trace_arrivals skips are not
// considered) can never fit when, for every flavor its team may use, the
// gang's GPUs exceed the team's ceiling (nominal plus what it may borrow,
// scheduler/team_ceiling.h; `kTeamLimit`), or the flavor's GPUs on all its
// nodes, or one pod is larger than the flavor's largest node (`kCluster`).
// `limit` is the most GPUs the job could have had (the largest over the
// team's flavors). These are certain cases only: a job that passes may still
// wait for fragmented nodes. Under a team's StrictFIFO queueing an unfit job
// blocks the team's later jobs (submitted later, or at the same time on a
// later line) whose priority is not above its own: `blocked_lines` lists
// their trace lines, in trace order. Results are in trace order. Errors: the
// policy does not compile. Pure function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "model/policy.h"
#include "model/trace_job.h"
#include "service/simulation/trace_arrivals.h"

namespace allot {

enum class UnfitReason { kTeamLimit, kCluster };

struct UnfitJob {
  int64_t line = 0;
  std::string namespace_name;
  int64_t gpus = 0;   // of the gang (whole nodes for a job larger than a node)
  int64_t limit = 0;  // the most GPUs it could ever get
  UnfitReason reason = UnfitReason::kTeamLimit;
  std::vector<int64_t> blocked_lines;  // under StrictFIFO only

  friend bool operator==(const UnfitJob&, const UnfitJob&) = default;
};

Result<std::vector<UnfitJob>> unfit_jobs(const std::vector<TraceJob>& jobs, const Policy& policy,
                                         const TraceArrivalOptions& options);

}  // namespace allot
