// PolicyComparison: one trace replayed through several policies, each run
// measured in the same terms (trace_metrics.h), so that they can be compared
// side by side (`allot simulate --trace`, its table, JSON and HTML report).
//
// Contract: every policy sees the same `jobs`, in the given order of
// policies; runs come back in that order. Before the first run every policy
// is validated (validate_policy) and the names are checked: at least one
// policy, names unique, the cycle positive (study_options.h), else
// kInvalidArgument. Jobs that a policy cannot replay (0 GPUs, 0 duration, a
// team the policy lacks) are skipped and counted per policy
// (trace_arrivals.h). Errors are located: a policy's by its `origin` (its
// name when empty) as "origin: details", a job's by options.trace_origin.
// The first error ends the study. Deterministic apart from `runtime_s`
// (the injected stopwatch); reads no clock and does no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "model/policy.h"
#include "model/trace_job.h"
#include "service/simulation/trace_arrivals.h"
#include "service/simulation/trace_metrics.h"
#include "service/study/study_options.h"

namespace allot {

struct NamedPolicy {
  std::string name;    // how the runs and progress name it ("hard-quota")
  Policy policy;       // as loaded; validated by the study
  std::string origin;  // where errors about it point (its file), "" for `name`
};

struct PolicyRun {
  std::string name;
  TraceSummary summary;
  SkippedJobs skipped;
  int64_t never_admitted = 0;  // workloads still pending at the end
  int64_t cycles = 0;
  double runtime_s = 0;  // real time of the simulation, by the injected stopwatch
};

struct PolicyComparison {
  int64_t jobs = 0;             // jobs given (the trace within the edge's window)
  std::vector<PolicyRun> runs;  // in the order of the policies
};

Result<PolicyComparison> compare_policies(const std::vector<TraceJob>& jobs,
                                          const std::vector<NamedPolicy>& policies,
                                          const StudyOptions& options);

}  // namespace allot
