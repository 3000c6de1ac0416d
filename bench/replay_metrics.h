// Replay metrics: what `allot-bench replay` measures of a scenario run through a
// real allotd, in the simulator's terms (service/simulation/simulation_report.h), so
// the two can be compared side by side.
//
// Contract: pure functions of the observed data.
// - wall_s: from the first submission to the last completion.
// - per class tta_mean_s: mean of firstAdmittedAt - createdAt.
// - per team usage: samples of the team's usage of the primary resource
//   divided by its nominal quota, averaged over the samples taken while the
//   team had work (from its first submission to its last completion).
// - preemptions: the sum of the workloads' restarts.
// - held_beyond_runtime_ms (median_held_beyond_runtime_ms): the median, over
//   the workloads admitted once that finished without a restart (one cancelled
//   before its admission has no admittedAt and is left out), of finishedAt - admittedAt
//   - the workload's runtime: how long a run held its capacity beyond its
//   work (its pod's start and the report of its exit), what a Scenario's
//   podStartLatency models. startedAt is not used: it is when allotd learned
//   that the pod runs, which may be as late as its exit.
// - class_held_beyond_runtime_ms (held_beyond_runtime_ms_by_class): the same
//   median over each priority class's workloads (spec.priorityClass; "" for
//   those without one).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace allot::bench {

struct UsageSample {
  double t_s = 0;                       // since the replay started
  std::map<std::string, double> usage;  // team -> usage / nominal
};

struct ReplayMetrics {
  int64_t workloads = 0;
  int64_t finished = 0;
  double wall_s = 0;
  int64_t preemptions = 0;
  std::map<std::string, double> class_tta_s;  // priority class -> mean time to admission
  std::map<std::string, double> team_usage;   // team -> mean usage / nominal
  double lowest_team_usage = 0;
  std::optional<int64_t> held_beyond_runtime_ms;                // set by the caller, see above
  std::map<std::string, int64_t> class_held_beyond_runtime_ms;  // likewise
};

// `workloads`: the JSON objects of GET /api/v1/workloads; `start_ms`: when
// the replay started (Unix ms).
// `runtimes`: "namespace/name" -> the workload's runtime; workloads not in it
// are left out. None when no workload counts.
Result<std::optional<int64_t>> median_held_beyond_runtime_ms(
    const std::vector<nlohmann::json>& workloads,
    const std::map<std::string, int64_t>& runtimes_ms);

// The same, per priority class; a class with no workload that counts is absent.
Result<std::map<std::string, int64_t>> held_beyond_runtime_ms_by_class(
    const std::vector<nlohmann::json>& workloads,
    const std::map<std::string, int64_t>& runtimes_ms);

Result<ReplayMetrics> replay_metrics(const std::vector<nlohmann::json>& workloads,
                                     const std::vector<UsageSample>& samples, int64_t start_ms);

}  // namespace allot::bench
