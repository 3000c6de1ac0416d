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
#pragma once

#include <cstdint>
#include <map>
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
};

// `workloads`: the JSON objects of GET /api/v1/workloads; `start_ms`: when
// the replay started (Unix ms).
Result<ReplayMetrics> replay_metrics(const std::vector<nlohmann::json>& workloads,
                                     const std::vector<UsageSample>& samples, int64_t start_ms);

}  // namespace allot::bench
