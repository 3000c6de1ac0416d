#include "bench/chaos_usage_check.h"

#include <map>
#include <set>
#include <utility>

namespace allot::bench {
namespace {

using nlohmann::json;

struct QuietMoment {
  std::vector<json> holding;  // Admitted and Running workloads
  std::vector<json> nodes;
  json top;
};

// One attempt: false when the holding set changed while nodes and top were read.
bool read_quiet_moment(ChaosReader& reader, QuietMoment& moment) {
  const std::string holding = "/api/v1/workloads?limit=10000&phase=Admitted,Running";
  std::vector<json> again;
  if (!reader.pages(holding, moment.holding)) return false;
  moment.top = reader.get("/api/v1/top");
  if (moment.top.is_discarded() || !reader.pages("/api/v1/nodes?limit=10000", moment.nodes)) {
    return false;
  }
  return reader.pages(holding, again) && again == moment.holding;
}

int64_t pods_of(const json& workload) {
  int64_t pods = 0;
  for (const json& pod_set : workload.at("spec").at("podSets")) pods += pod_set.value("count", 1);
  return pods;
}

// Per node, the GPUs of the placements; double-booked GPUs are violations.
std::map<std::string, int64_t> placed_gpus(const std::vector<json>& holding,
                                           ChaosCheckResult& result) {
  std::map<std::pair<std::string, int64_t>, std::string> owner;  // (node, gpu) -> workload
  std::map<std::string, int64_t> per_node;
  for (const json& workload : holding) {
    const std::string key = workload_key(workload);
    for (const json& pod_set : workload.at("status").value("podSets", json::array())) {
      for (const json& pod : pod_set.value("pods", json::array())) {
        const std::string node = pod.value("node", "");
        for (const json& gpu : pod.value("gpus", json::array())) {
          const auto [at, fresh] = owner.emplace(std::pair(node, gpu.get<int64_t>()), key);
          if (!fresh) {
            result.violations.push_back("GPU " + gpu.dump() + " of " + node +
                                        " double-booked: " + at->second + " and " + key);
          }
          ++per_node[node];
        }
      }
    }
  }
  return per_node;
}

void check_nodes(const QuietMoment& moment, ChaosCheckResult& result) {
  std::map<std::string, int64_t> pods;
  for (const json& workload : moment.holding) pods[workload_key(workload)] = pods_of(workload);
  std::map<std::string, int64_t> placed = placed_gpus(moment.holding, result);
  std::map<std::string, int64_t> listed;  // workload -> on how many nodes' lists
  for (const json& node : moment.nodes) {
    const std::string name = node.value("name", "");
    const int64_t allocated = quantity_of(node.at("allocated").at("gpu"));
    const int64_t capacity = quantity_of(node.at("capacity").at("gpu"));
    if (allocated > capacity || allocated < 0) {
      result.violations.push_back(name + " allocates " + std::to_string(allocated) + " of " +
                                  std::to_string(capacity) + " GPUs");
    }
    if (allocated != placed[name]) {
      result.violations.push_back(name + " allocates " + std::to_string(allocated) +
                                  " GPUs, the placements on it hold " +
                                  std::to_string(placed[name]));
    }
    for (const json& key : node.value("workloads", json::array())) ++listed[key.get<std::string>()];
  }
  for (const auto& [key, count] : listed) {
    const auto known = pods.find(key);
    if (known != pods.end() && count > known->second) {
      result.violations.push_back(key + " is on " + std::to_string(count) + " nodes' lists with " +
                                  std::to_string(known->second) + " pods: admitted twice");
    }
  }
}

void check_top(const QuietMoment& moment, ChaosCheckResult& result) {
  std::map<std::string, int64_t> expected;
  for (const json& workload : moment.holding) {
    int64_t gpus = 0;
    for (const json& pod_set : workload.at("spec").at("podSets")) {
      const json& resources = pod_set.at("resources");
      if (resources.contains("gpu"))
        gpus += pod_set.value("count", 1) * quantity_of(resources["gpu"]);
    }
    expected[workload.at("status").value("team", "")] += gpus;
    result.gpus_held += gpus;
  }
  std::map<std::string, int64_t> reported;
  for (const json& row : moment.top.at("teams")) {
    if (row.value("resource", "") != "gpu") continue;
    reported[row.value("team", "")] += quantity_of(row.at("usage"));
  }
  std::set<std::string> teams;
  for (const auto& [team, gpus] : expected) teams.insert(team);
  for (const auto& [team, gpus] : reported) teams.insert(team);
  for (const std::string& team : teams) {
    if (expected[team] != reported[team]) {
      result.violations.push_back("team " + team + ": top says " + std::to_string(reported[team]) +
                                  " GPUs in use, its Admitted and Running workloads hold " +
                                  std::to_string(expected[team]));
    }
  }
}

}  // namespace

void check_usage(ChaosReader& reader, ChaosCheckResult& result) {
  // A workload whose pods are being stopped may still hold its node for a
  // moment: the check passes once a quiet moment shows no violation.
  bool quiet = false;
  ChaosCheckResult last;
  poll_until(
      [&] {
        QuietMoment moment;
        if (!read_quiet_moment(reader, moment)) return !reader.error().empty();
        quiet = true;
        last = ChaosCheckResult{};
        check_nodes(moment, last);
        check_top(moment, last);
        return last.violations.empty();
      },
      kSettleLimit);
  if (!reader.error().empty() || !quiet) {
    result.error = quiet ? reader.error() : "no quiet moment within the settle limit";
    return;
  }
  result.gpus_held = last.gpus_held;
  result.violations.insert(result.violations.end(), last.violations.begin(), last.violations.end());
}

}  // namespace allot::bench
