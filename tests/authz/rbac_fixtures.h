// Builders shared by the authz tests: rules, subjects, roles and bindings in
// one line each, so that the tables read like the manifests they stand for.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "authz/authorizer.h"
#include "authz/builtin_roles.h"
#include "model/rbac/rbac_policy.h"

namespace allot::rbac_test {

using Strings = std::vector<std::string>;

inline PolicyRule rule(Strings verbs, Strings resources, Strings groups = {"allot"},
                       Strings names = {}) {
  return {std::move(verbs), std::move(groups), std::move(resources), std::move(names), {}};
}

inline PolicyRule url_rule(Strings verbs, Strings urls) {
  return {std::move(verbs), {}, {}, {}, std::move(urls)};
}

inline Subject user(std::string name) { return {SubjectKind::kUser, std::move(name), {}}; }
inline Subject group(std::string name) { return {SubjectKind::kGroup, std::move(name), {}}; }
inline Subject service_account(std::string namespace_name, std::string name) {
  return {SubjectKind::kServiceAccount, std::move(name), std::move(namespace_name)};
}

inline RoleRef cluster_role_ref(std::string name) {
  return {RoleRefKind::kClusterRole, std::move(name)};
}
inline RoleRef role_ref(std::string name) { return {RoleRefKind::kRole, std::move(name)}; }

inline ObjectMeta meta(std::string name, std::string namespace_name = {}) {
  return {std::move(name), std::move(namespace_name), {}};
}

inline Role role(std::string namespace_name, std::string name, std::vector<PolicyRule> rules) {
  return {meta(std::move(name), std::move(namespace_name)), std::move(rules)};
}

inline ClusterRole cluster_role(std::string name, std::vector<PolicyRule> rules) {
  return {meta(std::move(name)), std::move(rules), std::nullopt};
}

inline RoleBinding role_binding(std::string namespace_name, std::string name, RoleRef ref,
                                std::vector<Subject> subjects) {
  return {meta(std::move(name), std::move(namespace_name)), std::move(subjects), std::move(ref)};
}

inline ClusterRoleBinding cluster_role_binding(std::string name, std::string role,
                                               std::vector<Subject> subjects) {
  return {meta(std::move(name)), std::move(subjects), cluster_role_ref(std::move(role))};
}

// A team's three built-in bindings in its namespace: groups NS-admins,
// NS-members and NS-viewers.
inline void add_team(RbacPolicy& policy, const std::string& ns) {
  policy.role_bindings.push_back(
      role_binding(ns, "admins", cluster_role_ref("team-admin"), {group(ns + "-admins")}));
  policy.role_bindings.push_back(
      role_binding(ns, "members", cluster_role_ref("team-member"), {group(ns + "-members")}));
  policy.role_bindings.push_back(
      role_binding(ns, "viewers", cluster_role_ref("team-viewer"), {group(ns + "-viewers")}));
}

}  // namespace allot::rbac_test
