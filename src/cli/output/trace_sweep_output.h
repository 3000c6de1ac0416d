// How `allot simulate --trace` presents a sweep (--load-factor 1,2,4,
// --capacity-factor 1,1/3) and the warnings found before its replays.
//
// Contract: pure formatting, no I/O.
// - trace_sweep_json: a sweep of one point is that point's comparison object
//   (trace_output.h) plus "load_factor" and "capacity_factor"; a sweep of
//   several is {"sweep": [that object, one per point, in sweep order]}.
// - trace_sweep_table: one point: "Load factor X, capacity factor Y" then
//   the comparison tables (trace_output.h); several: one row per point and
//   policy (LOAD, CAPACITY, POLICY, then the headline figures), in sweep
//   order, then the per-team mean queueing delay of every point.
// - trace_warnings_text: one "warning: ..." line per policy with jobs that
//   can never start (each with its trace line, namespace, GPUs and limit,
//   at most 10 listed, the rest counted) and, under StrictFIFO, one line per
//   unfit job that blocks later jobs (their count and first lines); one per
//   policy that skips jobs of unknown teams (namespaces and counts). "" when
//   there is nothing to say.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "service/study/study_sweep.h"

namespace allot::cli {

nlohmann::json trace_sweep_json(const StudySweep& sweep);
std::string trace_sweep_table(const StudySweep& sweep);
std::string trace_warnings_text(double capacity_factor,
                                const std::vector<PolicyPreparation>& policies);

}  // namespace allot::cli
