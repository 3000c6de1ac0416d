// RbacPolicy: every Role, ClusterRole, RoleBinding and ClusterRoleBinding in
// force, the input authz compiles into an Authorizer.
//
// Contract: a value; objects keep the order they were given in. Names are
// unique per kind (per namespace for Role and RoleBinding): the store keeps
// one object per name; authz uses the first of a repeated name.
#pragma once

#include <vector>

#include "model/rbac/role.h"
#include "model/rbac/role_binding.h"

namespace allot {

struct RbacPolicy {
  std::vector<Role> roles;
  std::vector<ClusterRole> cluster_roles;
  std::vector<RoleBinding> role_bindings;
  std::vector<ClusterRoleBinding> cluster_role_bindings;

  friend bool operator==(const RbacPolicy&, const RbacPolicy&) = default;
};

}  // namespace allot
