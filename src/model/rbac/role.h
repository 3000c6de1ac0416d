// Role and ClusterRole: named sets of PolicyRules.
//
// Contract: values. A Role lives in one namespace (meta.namespace_name) and
// grants its rules there only, through RoleBindings of that namespace. A
// ClusterRole is cluster-scoped: bound by a ClusterRoleBinding it grants its
// rules in every namespace and on cluster-scoped resources; bound by a
// RoleBinding, only in that binding's namespace. A ClusterRole with an
// aggregation rule takes the union of the rules of every other ClusterRole
// whose labels match one of its selectors (its own rules are replaced), as
// Kubernetes' aggregation controller does; authz resolves it when it
// compiles the policy.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/object_meta.h"
#include "model/rbac/policy_rule.h"

namespace allot {

// Kubernetes' clusterRoleSelectors, matchLabels only: a ClusterRole matches a
// selector when it carries every label of it (an empty selector matches none).
struct AggregationRule {
  std::vector<std::map<std::string, std::string>> cluster_role_selectors;

  friend bool operator==(const AggregationRule&, const AggregationRule&) = default;
};

struct Role {
  ObjectMeta meta;  // namespace_name is required
  std::vector<PolicyRule> rules;

  friend bool operator==(const Role&, const Role&) = default;
};

struct ClusterRole {
  ObjectMeta meta;  // namespace_name is empty
  std::vector<PolicyRule> rules;
  std::optional<AggregationRule> aggregation;

  friend bool operator==(const ClusterRole&, const ClusterRole&) = default;
};

}  // namespace allot
