#include "api/kubernetes/kubernetes_render.h"

#include <algorithm>
#include <tuple>

#include "api/kubernetes/kubernetes_parts.h"

namespace allot {
namespace {

// Cluster-scoped kinds first, in an order a cluster can apply them.
int kind_rank(std::string_view kind) {
  constexpr std::string_view kOrder[] = {"Namespace",      "Topology",      "ResourceFlavor",
                                         "Cohort",         "ClusterQueue",  "WorkloadPriorityClass",
                                         "ServiceAccount", "Role",          "RoleBinding",
                                         "ResourceQuota",  "NetworkPolicy", "LocalQueue"};
  for (size_t i = 0; i < std::size(kOrder); ++i) {
    if (kOrder[i] == kind) return static_cast<int>(i);
  }
  return static_cast<int>(std::size(kOrder));
}

}  // namespace

KubernetesObject make_object(std::string api_version, std::string kind, std::string namespace_name,
                             std::string name) {
  KubernetesObject object{std::move(api_version), std::move(kind), std::move(namespace_name),
                          std::move(name), nlohmann::json::object()};
  object.manifest["apiVersion"] = object.api_version;
  object.manifest["kind"] = object.kind;
  object.manifest["metadata"] = {{"name", object.name}};
  if (!object.namespace_name.empty()) {
    object.manifest["metadata"]["namespace"] = object.namespace_name;
  }
  return object;
}

std::string kueue_api_version(KueueApiVersion version) {
  return version == KueueApiVersion::kV1beta1 ? "kueue.x-k8s.io/v1beta1" : "kueue.x-k8s.io/v1beta2";
}

KubernetesRendering render_kubernetes(const Policy& policy, const RbacPolicy& rbac,
                                      const KubernetesRenderOptions& options) {
  KubernetesRendering rendering;
  rendering.objects = render_kueue_objects(policy, options);
  for (const Team& team : policy.teams) {
    for (KubernetesObject& object : render_team_objects(team, policy, options)) {
      rendering.objects.push_back(std::move(object));
    }
    for (KubernetesObject& object : render_team_access(team, rbac, options)) {
      rendering.objects.push_back(std::move(object));
    }
  }
  std::stable_sort(
      rendering.objects.begin(), rendering.objects.end(),
      [](const KubernetesObject& a, const KubernetesObject& b) {
        const bool a_cluster = a.namespace_name.empty();
        const bool b_cluster = b.namespace_name.empty();
        return std::make_tuple(!a_cluster, a.namespace_name, kind_rank(a.kind), a.name) <
               std::make_tuple(!b_cluster, b.namespace_name, kind_rank(b.kind), b.name);
      });
  rendering.notes = mapping_notes(policy, rbac, options);
  return rendering;
}

}  // namespace allot
