// TraceStudy: the edge of `allot simulate --trace FILE --format philly|csv
// --policy P.yaml [--policy Q.yaml ...]`: reads the trace and the policy
// files, then hands them to the study (service/study/policy_comparison.h),
// which replays the trace through every policy and measures each run.
//
// Contract: a policy is named after its file's stem ("hard-quota" for
// examples/philly/hard-quota.yaml); two policies with the same stem are an
// error. The flags are checked before any file is read (at least one
// --policy, a positive --cycle, unique names); then the trace is read (within
// the --from/--to window), then every policy file. Errors from the study are
// located by file ("hard-quota.yaml: ..."). Each run's real time is measured
// here, on std::chrono::steady_clock, through the study's injected stopwatch
// (the CLI may read the clock; the study does not).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/trace_reader.h"
#include "base/result.h"
#include "base/time.h"
#include "service/study/policy_comparison.h"
#include "service/study/study_options.h"

namespace allot::cli {

struct TraceStudyRequest {
  std::string trace_path;
  TraceFormat format = TraceFormat::kCsv;
  std::vector<std::string> policy_paths;
  TraceWindow window;
  Duration cycle = Duration::seconds(10);
  // Prepended to trace team names to make namespaces; unset: "vc-" for
  // philly (whose VCs are hex ids), "" for csv.
  std::optional<std::string> namespace_prefix;
  // Called while a policy replays: its name, jobs arrived so far, jobs in total.
  PolicyProgressObserver on_progress;
  SteppedExecutorFactory executor;  // the simulator's (CliIo::simulator)
};

Result<PolicyComparison> run_trace_study(const TraceStudyRequest& request);

}  // namespace allot::cli
