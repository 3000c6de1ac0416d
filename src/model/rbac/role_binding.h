// RoleBinding and ClusterRoleBinding: a role granted to subjects.
//
// Contract: values. A RoleBinding lives in a namespace and references a Role
// of that namespace or a ClusterRole; either way it grants the rules in its
// namespace only. A ClusterRoleBinding references a ClusterRole (never a
// Role) and grants it everywhere. A reference to a role that does not exist
// grants nothing (as in Kubernetes: a binding may be created before its role).
#pragma once

#include <string>
#include <vector>

#include "model/object_meta.h"
#include "model/rbac/subject.h"

namespace allot {

enum class RoleRefKind { kRole, kClusterRole };

struct RoleRef {
  RoleRefKind kind = RoleRefKind::kClusterRole;
  std::string name;

  friend bool operator==(const RoleRef&, const RoleRef&) = default;
};

struct RoleBinding {
  ObjectMeta meta;  // namespace_name is required
  std::vector<Subject> subjects;
  RoleRef role_ref;

  friend bool operator==(const RoleBinding&, const RoleBinding&) = default;
};

struct ClusterRoleBinding {
  ObjectMeta meta;  // namespace_name is empty
  std::vector<Subject> subjects;
  RoleRef role_ref;  // kind is kClusterRole

  friend bool operator==(const ClusterRoleBinding&, const ClusterRoleBinding&) = default;
};

}  // namespace allot
