#include "authz/rbac_validation.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "authz/builtin_roles.h"

namespace allot {
namespace {

std::string where(std::string_view kind, const ObjectMeta& meta) {
  const std::string name =
      meta.namespace_name.empty() ? meta.name : meta.namespace_name + "/" + meta.name;
  return std::string(kind) + "/" + name;
}

template <typename T>
Status check_unique(const std::vector<T>& objects, std::string_view kind) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const T& object : objects) {
    if (!seen.insert({object.meta.namespace_name, object.meta.name}).second) {
      return invalid_argument("duplicate " + std::string(kind) + " '" + object.meta.name + "'",
                              where(kind, object.meta));
    }
  }
  return {};
}

template <typename T>
Status check_namespaces(const std::vector<T>& objects, std::string_view kind,
                        const std::set<std::string>& team_namespaces) {
  for (const T& object : objects) {
    if (team_namespaces.contains(object.meta.namespace_name)) continue;
    return not_found("no team owns namespace '" + object.meta.namespace_name + "': a " +
                         std::string(kind) + " lives in a team's namespace",
                     where(kind, object.meta) + ".metadata.namespace");
  }
  return {};
}

template <typename T>
Status check_not_builtin(const std::vector<T>& objects, std::string_view kind) {
  for (const T& object : objects) {
    if (!is_builtin_rbac_name(kind, object.meta.name)) continue;
    return invalid_argument(std::string(kind) + " '" + object.meta.name +
                                "' is built into allot and cannot be redefined; give yours "
                                "another name",
                            where(kind, object.meta) + ".metadata.name");
  }
  return {};
}

}  // namespace

bool is_builtin_rbac_name(std::string_view kind, std::string_view name) {
  if (kind == "ClusterRole") {
    const std::vector<ClusterRole> builtins = builtin_cluster_roles();
    return std::any_of(builtins.begin(), builtins.end(),
                       [name](const ClusterRole& role) { return role.meta.name == name; });
  }
  if (kind == "ClusterRoleBinding") {
    const std::vector<ClusterRoleBinding> builtins = builtin_cluster_role_bindings();
    return std::any_of(builtins.begin(), builtins.end(),
                       [name](const ClusterRoleBinding& b) { return b.meta.name == name; });
  }
  return false;
}

Status validate_rbac(const RbacPolicy& rbac, const std::set<std::string>& team_namespaces) {
  ALLOT_RETURN_IF_ERROR(check_unique(rbac.roles, "Role"));
  ALLOT_RETURN_IF_ERROR(check_unique(rbac.cluster_roles, "ClusterRole"));
  ALLOT_RETURN_IF_ERROR(check_unique(rbac.role_bindings, "RoleBinding"));
  ALLOT_RETURN_IF_ERROR(check_unique(rbac.cluster_role_bindings, "ClusterRoleBinding"));
  ALLOT_RETURN_IF_ERROR(check_not_builtin(rbac.cluster_roles, "ClusterRole"));
  ALLOT_RETURN_IF_ERROR(check_not_builtin(rbac.cluster_role_bindings, "ClusterRoleBinding"));
  ALLOT_RETURN_IF_ERROR(check_namespaces(rbac.roles, "Role", team_namespaces));
  return check_namespaces(rbac.role_bindings, "RoleBinding", team_namespaces);
}

}  // namespace allot
