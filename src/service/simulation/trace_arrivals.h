// trace_arrivals: turns the jobs of a replayed trace (model/trace_job.h) into
// the arrivals of a simulation of one policy.
//
// Contract, per job:
// - namespace: team_namespace(job.team, options.namespace_prefix); the job
//   goes to the policy's Team with that namespace.
// - one pod set (a gang): a job of g <= gpus_per_node GPUs is one pod of g
//   GPUs; a larger one is ceil(g / gpus_per_node) pods of gpus_per_node GPUs.
// - runtime: the job's duration; no maxRuntimeSeconds (the scheduler must not
//   know the future). Priority class: the job's, else the policy's lowest
//   (smallest value, first in policy order), else none.
// - name: the job's, else "job-<line>"; arrival time: submit minus the
//   earliest submit time of all `jobs` (virtual time 0), divided by
//   options.load_factor (a load factor of 3 compresses every inter-arrival
//   time threefold: the same jobs arrive three times as fast; durations are
//   kept), rounded to the millisecond.
// Jobs that cannot be replayed are skipped and counted, never an error: 0
// GPUs, 0 duration (in that order of precedence), or a namespace that no Team
// of the policy has (the documented fallback: counted per namespace).
// Errors, located by "line N" of the job: a job too large to be a gang, two
// jobs of one namespace with the same name (the message names the first
// one's line), a load factor that is not positive. Pure function.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/time.h"
#include "model/policy.h"
#include "model/trace_job.h"
#include "service/simulation/arrival_stream.h"

namespace allot {

struct TraceArrivalOptions {
  // Prepended to the sanitised team name: Philly VCs are hex ids ("6214e9")
  // that the example policies name "vc-6214e9".
  std::string namespace_prefix;
  int64_t gpus_per_node = 8;  // REQUIRES: > 0
  double load_factor = 1.0;   // > 0, else kInvalidArgument
};

struct SkippedJobs {
  std::map<std::string, int64_t> unknown_team;  // namespace -> jobs
  int64_t zero_gpus = 0;
  int64_t zero_duration = 0;

  [[nodiscard]] int64_t total() const;
  friend bool operator==(const SkippedJobs&, const SkippedJobs&) = default;
};

struct TraceArrivals {
  ArrivalStream arrivals;
  std::vector<int64_t> lines;  // the trace line of each job kept, in the order of `jobs`
  SkippedJobs skipped;
  Timestamp origin;  // the trace time that became virtual time 0
};

// `prefix` + `team` lower-cased, with every character other than [a-z0-9.-]
// replaced by '-' (a valid Kubernetes-style namespace for trace team names).
std::string team_namespace(std::string_view team, std::string_view prefix);

// The gang a job of `gpus` GPUs becomes (see above).
PodSet trace_gang(int64_t gpus, int64_t gpus_per_node);

Result<TraceArrivals> trace_arrivals(const std::vector<TraceJob>& jobs, const Policy& policy,
                                     const TraceArrivalOptions& options = {});

}  // namespace allot
