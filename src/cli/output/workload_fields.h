// WorkloadFields: facts about a workload object as allotd serves it
// (docs/api.md, "Workloads"), for tables and descriptions.
//
// Contract: read defensively (client/json_fields.h): missing fields give 0, "" or an
// empty list. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace allot::cli {

// The GPUs the workload asks for: the sum over spec.podSets of count x gpu.
int64_t requested_gpus(const nlohmann::json& workload);

// The distinct nodes its pods run on, in order of first appearance.
std::vector<std::string> placed_nodes(const nlohmann::json& workload);

// status.team, or the namespace when the server did not say.
std::string workload_team(const nlohmann::json& workload);

// A pod set's request per pod, "gpu=2 cpu=8 memory=64Gi" (gpu, cpu, memory
// first, then any other resource).
std::string resources_text(const nlohmann::json& resources);

// "a,b,c", or `none` for an empty list.
std::string join_or(const std::vector<std::string>& items, const std::string& none,
                    const std::string& separator = ",");

}  // namespace allot::cli
