// TraceStudy: the edge of `allot simulate --trace FILE [--format philly|csv]
// --policy P.yaml [--policy Q.yaml ...] [--load-factor X,..]
// [--capacity-factor Y,..]`: reads the trace and the policy files, then hands
// them to the study (service/study/policy_comparison.h), which replays the
// trace through every policy and measures each run, once per point of the
// sweep (every load factor with every capacity factor).
//
// Contract: a policy is named after its file's stem ("hard-quota" for
// examples/philly/hard-quota.yaml); two policies with the same stem are an
// error. The flags are checked before any file is read (at least one
// --policy, a positive --cycle when given, unique names, at least one factor
// of each kind, none repeated); then the trace is read (within the --from/--to
// window; its format from the header when `format` is unset: api/trace_reader.h),
// then every policy file. A capacity factor scales each policy
// (service/study/capacity_scaling.h); a load factor compresses the trace's
// inter-arrival times. Before any replay every point is prepared
// (prepare_comparison: skipped-team share, unfit jobs) and `on_prepared` is
// called once per capacity factor with what the study found, so that an edge
// can warn up front. Errors from the study are located by file
// ("hard-quota.yaml: ..."). Each run's real time is measured here, on
// std::chrono::steady_clock, through the study's injected stopwatch (the CLI
// may read the clock; the study does not).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "api/trace_reader.h"
#include "base/result.h"
#include "base/time.h"
#include "service/study/policy_comparison.h"
#include "service/study/study_options.h"
#include "service/study/study_sweep.h"

namespace allot::cli {

// Called before the replays, once per capacity factor.
using PreparedObserver =
    std::function<void(double capacity_factor, const std::vector<PolicyPreparation>& policies)>;

struct TraceStudyRequest {
  std::string trace_path;
  std::optional<TraceFormat> format;  // unset: inferred from the trace's header
  std::vector<std::string> policy_paths;
  TraceWindow window;
  std::optional<Duration> cycle;  // unset: each policy's scheduling.cycle
  std::vector<double> load_factors = {1.0};
  std::vector<double> capacity_factors = {1.0};
  // Share of jobs that may name a team a policy lacks; unset: any (--allow-skips).
  std::optional<double> max_unknown_team_share = 0.01;
  // Prepended to trace team names to make namespaces; unset: "vc-" for
  // philly (whose VCs are hex ids), "" for csv.
  std::optional<std::string> namespace_prefix;
  // Called while a policy replays: its name, jobs arrived so far, jobs in total.
  PolicyProgressObserver on_progress;
  PreparedObserver on_prepared;
  SteppedExecutorFactory executor;  // the simulator's (CliIo::simulator)
};

Result<StudySweep> run_trace_study(const TraceStudyRequest& request);

}  // namespace allot::cli
