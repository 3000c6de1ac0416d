#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "api/kubernetes/kubernetes_names.h"
#include "api/kubernetes/kubernetes_parts.h"

namespace allot {
namespace {

using nlohmann::json;

enum class Access { kNone, kView, kAct };

bool has_any(const std::vector<std::string>& items, std::initializer_list<std::string_view> of) {
  return std::any_of(items.begin(), items.end(), [&](const std::string& item) {
    return std::find(of.begin(), of.end(), item) != of.end();
  });
}

Access access_of_rules(const std::vector<PolicyRule>& rules) {
  Access access = Access::kNone;
  for (const PolicyRule& rule : rules) {
    if (!has_any(rule.resources, {"workloads", "*"})) continue;
    if (has_any(rule.verbs, {"create", "update", "patch", "delete", "deletecollection", "*"})) {
      return Access::kAct;
    }
    if (has_any(rule.verbs, {"get", "list", "watch"})) access = Access::kView;
  }
  return access;
}

// What a role grants on workloads: the built-in roles by name (unless redefined).
Access access_of(const RoleRef& ref, std::string_view ns, const RbacPolicy& rbac) {
  if (ref.kind == RoleRefKind::kRole) {
    for (const Role& role : rbac.roles) {
      if (role.meta.name == ref.name && role.meta.namespace_name == ns) {
        return access_of_rules(role.rules);
      }
    }
    return Access::kNone;
  }
  for (const ClusterRole& role : rbac.cluster_roles) {
    if (role.meta.name == ref.name && !role.aggregation) return access_of_rules(role.rules);
  }
  if (ref.name == "cluster-admin" || ref.name == "team-admin" || ref.name == "team-member") {
    return Access::kAct;
  }
  return ref.name == "team-viewer" ? Access::kView : Access::kNone;
}

struct Grantees {
  std::set<std::pair<std::string, std::string>> view;  // (kind, name)
  std::set<std::pair<std::string, std::string>> act;
};

void add_subjects(const std::vector<Subject>& subjects, Access access, const std::string& prefix,
                  Grantees& grantees) {
  if (access == Access::kNone) return;
  for (const Subject& subject : subjects) {
    if (subject.kind == SubjectKind::kServiceAccount) continue;  // allot's, not Kubernetes'
    std::pair<std::string, std::string> entry = {
        subject.kind == SubjectKind::kGroup ? "Group" : "User", prefix + subject.name};
    grantees.view.insert(entry);
    if (access == Access::kAct) grantees.act.insert(entry);
  }
}

json rules_json(bool act) {
  const json read = json::array({"get", "list", "watch"});
  const json write = json::array({"create", "update", "patch", "delete"});
  const json& verbs = act ? write : read;
  json rules = json::array({
      {{"apiGroups", json::array({"batch"})},
       {"resources", json::array({"jobs"})},
       {"verbs", verbs}},
      {{"apiGroups", json::array({"kubeflow.org"})},
       {"resources", json::array({"pytorchjobs"})},
       {"verbs", verbs}},
      {{"apiGroups", json::array({"kueue.x-k8s.io"})},
       {"resources", json::array({"workloads"})},
       {"verbs", verbs}},
  });
  if (act) {
    rules.push_back({{"apiGroups", json::array({""})},
                     {"resources", json::array({"pods"})},
                     {"verbs", json::array({"delete"})}});
    rules.push_back({{"apiGroups", json::array({""})},
                     {"resources", json::array({"pods/exec"})},
                     {"verbs", json::array({"create", "get"})}});
  } else {
    rules.push_back({{"apiGroups", json::array({"kueue.x-k8s.io"})},
                     {"resources", json::array({"localqueues"})},
                     {"verbs", verbs}});
    rules.push_back({{"apiGroups", json::array({""})},
                     {"resources", json::array({"events", "pods", "pods/log"})},
                     {"verbs", verbs}});
  }
  return rules;
}

KubernetesObject role_binding(const std::string& ns, const std::string& role,
                              const std::set<std::pair<std::string, std::string>>& subjects) {
  KubernetesObject object = make_object("rbac.authorization.k8s.io/v1", "RoleBinding", ns, role);
  json list = json::array();
  for (const auto& [kind, name] : subjects) {
    list.push_back({{"kind", kind}, {"apiGroup", "rbac.authorization.k8s.io"}, {"name", name}});
  }
  object.manifest["subjects"] = list;
  object.manifest["roleRef"] = {
      {"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "Role"}, {"name", role}};
  return object;
}

}  // namespace

std::vector<KubernetesObject> render_team_access(const Team& team, const RbacPolicy& rbac,
                                                 const KubernetesRenderOptions& options) {
  const std::string allot_ns = team.namespace_name.empty() ? team.meta.name : team.namespace_name;
  Grantees grantees;
  for (const RoleBinding& binding : rbac.role_bindings) {
    if (binding.meta.namespace_name != allot_ns) continue;
    add_subjects(binding.subjects, access_of(binding.role_ref, allot_ns, rbac),
                 options.subject_prefix, grantees);
  }
  for (const ClusterRoleBinding& binding : rbac.cluster_role_bindings) {
    add_subjects(binding.subjects, access_of(binding.role_ref, "", rbac), options.subject_prefix,
                 grantees);
  }
  const std::string ns = team_namespace(team, options.naming);
  std::vector<KubernetesObject> objects;
  for (const bool act : {false, true}) {
    const std::string name = act ? "allot-act" : "allot-view";
    KubernetesObject role = make_object("rbac.authorization.k8s.io/v1", "Role", ns, name);
    role.manifest["rules"] = rules_json(act);
    objects.push_back(std::move(role));
    const auto& subjects = act ? grantees.act : grantees.view;
    if (!subjects.empty()) objects.push_back(role_binding(ns, name, subjects));
  }
  return objects;
}

}  // namespace allot
