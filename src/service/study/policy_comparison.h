// PolicyComparison: one trace replayed through several policies, each run
// measured in the same terms (trace_metrics.h), so that they can be compared
// side by side (`allot simulate --trace`, its table, JSON and HTML report).
//
// Contract: every policy sees the same `jobs`, in the given order of
// policies; runs come back in that order. Before the first run the study is
// checked (prepare_comparison, which compare_policies runs first): at least
// one job (else kInvalidArgument "no jobs to replay", located by
// options.trace_origin), at least one policy, names unique, the options valid
// (study_options.h), every policy valid (validate_policy); then, per policy,
// the jobs are turned into arrivals (trace_arrivals.h: errors located as
// "trace_origin: line N"), the share of jobs skipped for an unknown team is
// checked against options.max_unknown_team_share (the message names the
// namespaces, the counts and the team prefix as the likely cause), and the
// jobs that can never fit are found (unfit_jobs.h). Jobs that a policy
// cannot replay (0 GPUs, 0 duration, a team the policy lacks) are skipped
// and counted per policy. A policy's errors are located by its `origin` (its
// name when empty) as "origin: details". The first error ends the study.
// Each run records the cycle it ran with and whether options.cycle set it.
// Deterministic apart from `runtime_s` (the injected stopwatch); reads no
// clock and does no I/O.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/result.h"
#include "base/time.h"
#include "model/policy.h"
#include "model/trace_job.h"
#include "service/simulation/trace_arrivals.h"
#include "service/simulation/trace_metrics.h"
#include "service/study/study_options.h"
#include "service/study/unfit_jobs.h"

namespace allot {

struct NamedPolicy {
  std::string name;    // how the runs and progress name it ("hard-quota")
  Policy policy;       // as loaded; validated by the study
  std::string origin;  // where errors about it point (its file), "" for `name`
};

// What the study knows of a policy before replaying it.
struct PolicyPreparation {
  std::string name;
  SkippedJobs skipped;
  std::vector<UnfitJob> unfit;    // jobs that can never start (unfit_jobs.h)
  Duration cycle;                 // the scheduling cycle the run uses
  bool cycle_overridden = false;  // true: options.cycle; false: the policy's own
};

struct PolicyRun {
  std::string name;
  TraceSummary summary;
  SkippedJobs skipped;
  std::vector<UnfitJob> unfit;
  Duration cycle;
  bool cycle_overridden = false;
  int64_t never_admitted = 0;  // workloads still pending at the end
  int64_t cycles = 0;
  double runtime_s = 0;  // real time of the simulation, by the injected stopwatch
};

struct PolicyComparison {
  int64_t jobs = 0;             // jobs given (the trace within the edge's window)
  std::vector<PolicyRun> runs;  // in the order of the policies
};

Result<std::vector<PolicyPreparation>> prepare_comparison(const std::vector<TraceJob>& jobs,
                                                          const std::vector<NamedPolicy>& policies,
                                                          const StudyOptions& options);

Result<PolicyComparison> compare_policies(const std::vector<TraceJob>& jobs,
                                          const std::vector<NamedPolicy>& policies,
                                          const StudyOptions& options);

}  // namespace allot
