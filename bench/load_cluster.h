// The cluster that the load benches (`allot-bench mixed`, `allot-bench chaos`)
// drive: a policy of `nodes` nodes of 8 GPUs shared by kLoadTeams teams
// (t0, t1, ...) of one cohort, the sleep workloads their clients submit, and
// the API paths of both.
//
// Contract: pure functions of their arguments; the policy's priority class
// `batch` has a grace period of 0 s, so a stopped pod gets SIGKILL at once.
#pragma once

#include <cstdint>
#include <string>

namespace allot::bench {

constexpr int kLoadTeams = 4;

struct LoadPolicy {
  int32_t nodes = 4;
  int32_t first_team_nominal = 8;  // the others get an equal share of the GPUs
  std::string cycle = "1s";        // the scheduling cycle
};

// All the documents of the policy, as YAML for POST /api/v1/apply.
std::string load_policy_yaml(const LoadPolicy& policy);

struct LoadWorkload {
  std::string name;
  int32_t pods = 1;
  int32_t gpus_per_pod = 1;
  int32_t sleep_s = 20;  // each pod runs `sleep sleep_s`
};

// The Workload manifest as JSON, for POST .../workloads.
std::string load_workload_json(const LoadWorkload& workload);

// "team" to the namespace's workloads path, "team/name" to the workload's.
std::string workloads_path(const std::string& key);

// The name of node `index` of the policy ("pool-0", ...).
std::string load_node_name(int32_t index);

}  // namespace allot::bench
