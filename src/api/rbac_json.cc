#include "api/rbac_json.h"

#include <string>
#include <string_view>
#include <vector>

namespace allot {
namespace {

using nlohmann::json;

constexpr std::string_view kRbacApiVersion = "rbac.authorization.k8s.io/v1";
constexpr std::string_view kRbacJsonGroup = "rbac.authorization.k8s.io";

json header(std::string_view kind, const ObjectMeta& meta) {
  json metadata = {{"name", meta.name}};
  if (!meta.namespace_name.empty()) metadata["namespace"] = meta.namespace_name;
  if (!meta.labels.empty()) metadata["labels"] = meta.labels;
  return {{"apiVersion", kRbacApiVersion}, {"kind", kind}, {"metadata", std::move(metadata)}};
}

void put_list(json& out, const char* key, const std::vector<std::string>& values) {
  if (!values.empty()) out[key] = values;
}

json rules_json(const std::vector<PolicyRule>& rules) {
  json out = json::array();
  for (const PolicyRule& rule : rules) {
    json entry = {{"verbs", rule.verbs}};
    if (rule.non_resource_urls.empty()) entry["apiGroups"] = rule.api_groups;
    put_list(entry, "resources", rule.resources);
    put_list(entry, "resourceNames", rule.resource_names);
    put_list(entry, "nonResourceURLs", rule.non_resource_urls);
    out.push_back(std::move(entry));
  }
  return out;
}

json subjects_json(const std::vector<Subject>& subjects) {
  json out = json::array();
  for (const Subject& subject : subjects) {
    switch (subject.kind) {
      case SubjectKind::kUser:
        out.push_back({{"kind", "User"}, {"apiGroup", kRbacJsonGroup}, {"name", subject.name}});
        break;
      case SubjectKind::kGroup:
        out.push_back({{"kind", "Group"}, {"apiGroup", kRbacJsonGroup}, {"name", subject.name}});
        break;
      case SubjectKind::kServiceAccount:
        out.push_back({{"kind", "ServiceAccount"},
                       {"name", subject.name},
                       {"namespace", subject.namespace_name}});
        break;
    }
  }
  return out;
}

json role_ref_json(const RoleRef& ref) {
  return {{"apiGroup", kRbacJsonGroup},
          {"kind", ref.kind == RoleRefKind::kRole ? "Role" : "ClusterRole"},
          {"name", ref.name}};
}

}  // namespace

json role_json(const Role& role) {
  json out = header("Role", role.meta);
  out["rules"] = rules_json(role.rules);
  return out;
}

json cluster_role_json(const ClusterRole& role) {
  json out = header("ClusterRole", role.meta);
  out["rules"] = rules_json(role.rules);
  if (role.aggregation) {
    json selectors = json::array();
    for (const auto& labels : role.aggregation->cluster_role_selectors) {
      selectors.push_back({{"matchLabels", labels}});
    }
    out["aggregationRule"] = {{"clusterRoleSelectors", std::move(selectors)}};
  }
  return out;
}

json role_binding_json(const RoleBinding& binding) {
  json out = header("RoleBinding", binding.meta);
  out["subjects"] = subjects_json(binding.subjects);
  out["roleRef"] = role_ref_json(binding.role_ref);
  return out;
}

json cluster_role_binding_json(const ClusterRoleBinding& binding) {
  json out = header("ClusterRoleBinding", binding.meta);
  out["subjects"] = subjects_json(binding.subjects);
  out["roleRef"] = role_ref_json(binding.role_ref);
  return out;
}

}  // namespace allot
