#include "service/control/policy_objects.h"

#include <string>

#include "api/rbac_json.h"
#include "authz/builtin_roles.h"

namespace allot {

PolicyObjectView object_view(const DocumentKey& key, const nlohmann::json& document) {
  PolicyObjectView view{key.first, key.second, document.dump(), std::nullopt};
  if (const size_t slash = key.second.find('/'); slash != std::string::npos) {
    view.namespace_name = key.second.substr(0, slash);
    view.name = key.second.substr(slash + 1);
  }
  return view;
}

std::vector<PolicyObjectView> builtin_objects(std::string_view kind) {
  std::vector<PolicyObjectView> views;
  if (kind == "ClusterRole") {
    for (const ClusterRole& role : builtin_cluster_roles()) {
      views.push_back(object_view({"ClusterRole", role.meta.name}, cluster_role_json(role)));
    }
  } else if (kind == "ClusterRoleBinding") {
    for (ClusterRoleBinding binding : builtin_cluster_role_bindings()) {
      binding.meta.labels["allot.dev/builtin"] = "true";
      views.push_back(object_view({"ClusterRoleBinding", binding.meta.name},
                                  cluster_role_binding_json(binding)));
    }
  }
  return views;
}

}  // namespace allot
