#include "api/kubernetes/kubernetes_names.h"

#include <charconv>
#include <cmath>
#include <string>

#include "api/kubernetes/kubernetes_render.h"

namespace allot {
namespace {

constexpr std::string_view kHyperPodPrefix = "hyperpod-ns-";
constexpr std::string_view kClusterQueueSuffix = "-clusterqueue";
constexpr std::string_view kPrioritySuffix = "-priority";

bool strip(std::string_view& text, std::string_view prefix, std::string_view suffix) {
  if (text.size() <= prefix.size() + suffix.size()) return false;
  if (!text.starts_with(prefix) || !text.ends_with(suffix)) return false;
  text = text.substr(prefix.size(), text.size() - prefix.size() - suffix.size());
  return true;
}

}  // namespace

std::string team_namespace(const Team& team, KubernetesNaming naming) {
  if (naming == KubernetesNaming::kHyperPod) return std::string(kHyperPodPrefix) + team.meta.name;
  return team.namespace_name.empty() ? team.meta.name : team.namespace_name;
}

std::string local_queue_name(const Team& team, KubernetesNaming naming) {
  if (naming == KubernetesNaming::kHyperPod) return team_namespace(team, naming) + "-localqueue";
  return team.meta.name;
}

std::string cluster_queue_name(std::string_view team, KubernetesNaming naming) {
  if (naming == KubernetesNaming::kHyperPod) {
    return std::string(kHyperPodPrefix) + std::string(team) + std::string(kClusterQueueSuffix);
  }
  return std::string(team);
}

std::string priority_class_name(std::string_view priority_class, KubernetesNaming naming) {
  if (naming == KubernetesNaming::kHyperPod) {
    return std::string(priority_class) + std::string(kPrioritySuffix);
  }
  return std::string(priority_class);
}

std::string team_from_cluster_queue(std::string_view name, KubernetesNaming naming) {
  if (naming == KubernetesNaming::kPlain) return std::string(name);
  return strip(name, kHyperPodPrefix, kClusterQueueSuffix) ? std::string(name) : std::string();
}

std::string priority_class_from_name(std::string_view name, KubernetesNaming naming) {
  if (naming == KubernetesNaming::kPlain) return std::string(name);
  return strip(name, "", kPrioritySuffix) ? std::string(name) : std::string();
}

std::string_view kubernetes_resource_name(Resource resource) {
  switch (resource) {
    case Resource::kGpu: return kGpuResourceName;
    case Resource::kCpu: return "cpu";
    case Resource::kMemory: return "memory";
  }
  return "cpu";
}

Result<Resource> resource_from_kubernetes(std::string_view name) {
  for (Resource resource : kAllResources) {
    if (kubernetes_resource_name(resource) == name) return resource;
  }
  return invalid_argument("resource '" + std::string(name) +
                          "': allot's quotas know nvidia.com/gpu, cpu and memory only");
}

nlohmann::json quantity_json(Resource resource, int64_t amount) {
  return format_quantity(resource, amount);
}

Result<int64_t> quantity_from_json(Resource resource, const nlohmann::json& value) {
  if (value.is_number_integer())
    return parse_quantity(resource, std::to_string(value.get<int64_t>()));
  if (value.is_string()) return parse_quantity(resource, value.get<std::string>());
  return invalid_argument("a quantity is a string (\"64Gi\", \"500m\") or an integer");
}

nlohmann::json weight_json(double weight) {
  char buffer[64];
  auto [end, error] = std::to_chars(buffer, buffer + sizeof(buffer), weight);
  if (error != std::errc()) return "1";
  return std::string(buffer, end);
}

Result<double> weight_from_json(const nlohmann::json& value) {
  if (value.is_number()) {
    const double weight = value.get<double>();
    if (std::isfinite(weight) && weight >= 0) return weight;
    return invalid_argument("a weight is a non-negative quantity");
  }
  if (!value.is_string()) return invalid_argument("a weight is a quantity (\"2\", \"0.5\")");
  std::string text = value.get<std::string>();
  double scale = 1.0;
  if (!text.empty() && text.back() == 'm') {
    text.pop_back();
    scale = 0.001;
  }
  double weight = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), weight);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(weight) ||
      weight < 0) {
    return invalid_argument("weight '" + value.get<std::string>() +
                            "' is not a non-negative decimal quantity");
  }
  return weight * scale;
}

}  // namespace allot
