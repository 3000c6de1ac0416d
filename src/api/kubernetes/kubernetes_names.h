// KubernetesNames: the names and labels allot's objects take on Kubernetes,
// for the plain naming and HyperPod task governance's, and the mapping of
// allot's resources to Kubernetes resource names and quantities.
//
// Contract: pure functions. plain: a team's namespace is its own
// (team.namespace_name, or its name), its LocalQueue and ClusterQueue are
// named after the team, a priority class keeps its name. hyperpod: namespace
// hyperpod-ns-<team>, LocalQueue hyperpod-ns-<team>-localqueue, ClusterQueue
// hyperpod-ns-<team>-clusterqueue, WorkloadPriorityClass <name>-priority.
// The *_from_* functions invert them (for import) and return an empty string
// for a name that does not follow the convention.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/quantity.h"
#include "base/result.h"
#include "model/team.h"

namespace allot {

enum class KubernetesNaming;

inline constexpr std::string_view kQueueNameLabel = "kueue.x-k8s.io/queue-name";
inline constexpr std::string_view kPriorityClassLabel = "kueue.x-k8s.io/priority-class";
inline constexpr std::string_view kTeamLabel = "allot.dev/team";
inline constexpr std::string_view kCohortLabel = "allot.dev/cohort";
// The node label of a ResourceFlavor with a topology but no node labels of
// its own (Kueue requires one): its nodes carry allot.dev/flavor=<flavor>.
inline constexpr std::string_view kFlavorLabel = "allot.dev/flavor";
inline constexpr std::string_view kGpuResourceName = "nvidia.com/gpu";

std::string team_namespace(const Team& team, KubernetesNaming naming);
std::string local_queue_name(const Team& team, KubernetesNaming naming);
std::string cluster_queue_name(std::string_view team, KubernetesNaming naming);
std::string priority_class_name(std::string_view priority_class, KubernetesNaming naming);

std::string team_from_cluster_queue(std::string_view name, KubernetesNaming naming);
std::string priority_class_from_name(std::string_view name, KubernetesNaming naming);

// gpu -> nvidia.com/gpu, cpu -> cpu, memory -> memory.
std::string_view kubernetes_resource_name(Resource resource);
// The inverse; invalid_argument (no details) for any other name.
Result<Resource> resource_from_kubernetes(std::string_view name);

// A quantity as Kubernetes writes it: "8", "1500m", "64Gi".
nlohmann::json quantity_json(Resource resource, int64_t amount);
// A Kubernetes quantity (a string or an integer) back into base units.
Result<int64_t> quantity_from_json(Resource resource, const nlohmann::json& value);

// A fair-sharing weight as a quantity ("3", "0.5"), and back ("500m" too).
nlohmann::json weight_json(double weight);
Result<double> weight_from_json(const nlohmann::json& value);

}  // namespace allot
