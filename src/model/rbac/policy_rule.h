// PolicyRule: one rule of a Role or ClusterRole, with Kubernetes RBAC's
// meaning (rbac.authorization.k8s.io/v1).
//
// Contract: a value. A resource rule names verbs, apiGroups and resources
// ("workloads", a subresource "workloads/logs", "*" for every resource and
// subresource, "*/logs" for that subresource of every resource) and, when
// resourceNames is not empty, only those object names. A non-resource rule
// names URL paths ("/healthz", "/metrics/*": a trailing "*" is a prefix) and
// only counts in ClusterRoles bound by ClusterRoleBindings. "*" in verbs or
// apiGroups matches every verb or group. Rules only add: there is no deny.
// What a rule means is authz's (authz/rule_match.h); this is its shape.
#pragma once

#include <string>
#include <vector>

namespace allot {

struct PolicyRule {
  std::vector<std::string> verbs;
  std::vector<std::string> api_groups;
  std::vector<std::string> resources;
  std::vector<std::string> resource_names;  // empty: every name
  std::vector<std::string> non_resource_urls;

  friend bool operator==(const PolicyRule&, const PolicyRule&) = default;
};

}  // namespace allot
