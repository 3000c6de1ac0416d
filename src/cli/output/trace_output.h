// How `allot simulate --trace` presents a PolicyComparison: one JSON object
// for machines, side-by-side tables (one column per policy) for people.
//
// Contract: the JSON object is
//   {"jobs_read": N,
//    "policies": {NAME: {"overall": METRICS, "teams": {TEAM: METRICS},
//                        "skipped_jobs": {"total", "zero_gpus", "zero_duration",
//                                         "unknown_team": {NAMESPACE: N}},
//                        "unfit_jobs": [{"line", "namespace", "gpus", "limit",
//                                        "reason": "team_limit"|"cluster",
//                                        "blocked_lines": [N]}],
//                        "gpu_hour_price": P|null, "currency": "USD"|"",
//                        "cycle_s": S, "cycle_source": "policy"|"override",
//                        "never_admitted": N, "cycles": N, "runtime_s": S}}}
// where METRICS has exactly the keys jobs, finished, mean_queue_s,
// median_queue_s, p95_queue_s, max_queue_s, mean_jct_s, utilization,
// borrowed_gpu_hours, own_gpu_hours, idle_gpu_hours, cost, borrowed_cost,
// idle_cost (null without a price), preemptions, guarantee_compliance,
// violated_cycles_reclaimable, violated_cycles_beyond_bound,
// violated_cycles_fragmented, longest_violation_s (definitions in
// service/simulation/trace_metrics.h). `runtime_s` is the only key that differs between identical
// runs. The table says which scheduling cycle ran ("10s (policy)", "1s
// (--cycle)"), how many jobs can never start, and names the namespaces of
// jobs skipped for an unknown team with their counts; per team, GPU-hours
// own / borrowed (and cost when priced). Pure formatting: no I/O.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "service/study/policy_comparison.h"

namespace allot::cli {

nlohmann::json trace_comparison_json(const PolicyComparison& comparison);
std::string trace_comparison_table(const PolicyComparison& comparison);

// "vc-a (12), vc-b (3)": the namespaces of jobs skipped for an unknown team.
std::string unknown_teams_text(const SkippedJobs& skipped);

}  // namespace allot::cli
