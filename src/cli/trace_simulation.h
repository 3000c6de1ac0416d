// Trace replay for `allot simulate --trace FILE --format philly|csv
// --policy P.yaml [--policy Q.yaml ...]`: reads the trace once, then replays
// it through every policy and measures each run (service/trace_metrics.h).
//
// Contract: every policy sees the same jobs (after the --from/--to window).
// A policy is named after its file's stem ("hard-quota" for
// examples/philly/hard-quota.yaml); two policies with the same stem are an
// error. Jobs that a policy cannot replay (0 GPUs, 0 duration, a team the
// policy lacks) are skipped and counted per policy (trace_arrivals.h). The
// scheduling cycle is `cycle` for every policy (traces are replayed with a
// coarse cycle). Each run's real time is measured here (the CLI may read the
// clock; the simulation itself does not). Errors: the first Status of
// reading the trace, loading a policy or running a simulation, located by
// file ("hard-quota.yaml: ...").
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "api/trace_reader.h"
#include "base/result.h"
#include "base/time.h"
#include "service/simulation/trace_arrivals.h"
#include "service/simulation/trace_metrics.h"

namespace allot::cli {

struct TraceSimulationRequest {
  std::string trace_path;
  TraceFormat format = TraceFormat::kCsv;
  std::vector<std::string> policy_paths;
  TraceWindow window;
  Duration cycle = Duration::seconds(10);
  // Prepended to trace team names to make namespaces; unset: "vc-" for
  // philly (whose VCs are hex ids), "" for csv.
  std::optional<std::string> namespace_prefix;
  // Called while a policy replays: its name, jobs arrived so far, jobs in total.
  std::function<void(const std::string& policy, int64_t arrived, int64_t total)> on_progress;
};

struct PolicyRun {
  std::string name;  // the policy file's stem
  TraceSummary summary;
  SkippedJobs skipped;
  int64_t never_admitted = 0;  // workloads still pending at the end
  int64_t cycles = 0;
  double runtime_s = 0;  // real time of the simulation
};

struct TraceComparison {
  int64_t jobs_read = 0;        // jobs in the trace within the window
  std::vector<PolicyRun> runs;  // in the order of policy_paths
};

Result<TraceComparison> run_trace_simulation(const TraceSimulationRequest& request);

}  // namespace allot::cli
