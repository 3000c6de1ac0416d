#include "cli/output/workload_fields.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "cli/client/json_fields.h"

namespace allot::cli {

int64_t requested_gpus(const nlohmann::json& workload) {
  const nlohmann::json* spec = find_at(workload, {"spec"});
  if (spec == nullptr) return 0;
  int64_t total = 0;
  for (const nlohmann::json& pod_set : array_at(*spec, "podSets")) {
    const nlohmann::json* gpu = find_at(pod_set, {"resources", "gpu"});
    const nlohmann::json* count = find_at(pod_set, {"count"});
    const int64_t per_pod = gpu == nullptr ? 0 : integer_of(*gpu).value_or(0);
    const int64_t pods = count == nullptr ? 1 : integer_of(*count).value_or(1);
    total += per_pod * pods;
  }
  return total;
}

std::vector<std::string> placed_nodes(const nlohmann::json& workload) {
  std::vector<std::string> nodes;
  const nlohmann::json* status = find_at(workload, {"status"});
  if (status == nullptr) return nodes;
  for (const nlohmann::json& pod_set : array_at(*status, "podSets")) {
    for (const nlohmann::json& pod : array_at(pod_set, "pods")) {
      const std::string node = text_at(pod, {"node"});
      if (!node.empty() && std::find(nodes.begin(), nodes.end(), node) == nodes.end()) {
        nodes.push_back(node);
      }
    }
  }
  return nodes;
}

std::string workload_team(const nlohmann::json& workload) {
  std::string team = text_at(workload, {"status", "team"});
  return team.empty() ? text_at(workload, {"metadata", "namespace"}) : team;
}

std::string resources_text(const nlohmann::json& resources) {
  if (!resources.is_object()) return {};
  constexpr std::array<std::string_view, 3> kFirst = {"gpu", "cpu", "memory"};
  std::string out;
  const auto append = [&out](const std::string& name, const nlohmann::json& amount) {
    out += (out.empty() ? "" : " ") + name + "=" + scalar_text(amount);
  };
  for (std::string_view name : kFirst) {
    if (const auto it = resources.find(name); it != resources.end()) append(std::string(name), *it);
  }
  for (const auto& [name, amount] : resources.items()) {
    if (std::find(kFirst.begin(), kFirst.end(), name) == kFirst.end()) append(name, amount);
  }
  return out;
}

std::string join_or(const std::vector<std::string>& items, const std::string& none,
                    const std::string& separator) {
  if (items.empty()) return none;
  std::string out = items.front();
  for (size_t i = 1; i < items.size(); ++i) {
    out += separator + items[i];
  }
  return out;
}

}  // namespace allot::cli
