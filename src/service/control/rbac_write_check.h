// RBAC writes: whether a caller may apply the Roles, ClusterRoles,
// RoleBindings and ClusterRoleBindings of one apply (issue 11, item 4).
//
// Contract: pure over its arguments (the Authorizer in force, the applied
// policy). For every RBAC object of the batch, in the order roles, cluster
// roles, role bindings, cluster role bindings:
//   - the write itself: `create` (a new object) or `update` (one that exists)
//     on roles, clusterroles, rolebindings or clusterrolebindings, in the
//     object's namespace, by its name;
//   - escalation prevention (authz/escalation.h): a role needs every
//     permission it grants, or `escalate` on it; a binding needs every
//     permission of the role it references where it applies, or `bind` on
//     that role. A binding may reference a role of the same batch: the role
//     is then checked first, and the binding against the role as the batch
//     defines it, with the caller's rights as they are now.
// The first refusal is kPermissionDenied with the authorizer's reason and,
// in details, the object ("RoleBinding/research/admins"). Principal::admin
// (allotd itself) passes. Nothing is changed here: the caller checks before
// it applies anything.
#pragma once

#include "base/status.h"
#include "model/principal.h"
#include "model/rbac/rbac_policy.h"
#include "service/control/access_control.h"
#include "service/control/policy_state.h"

namespace allot {

Status authorize_rbac_writes(const AccessControl& access, const Principal& caller,
                             const RbacPolicy& batch, const PolicyState& current);

}  // namespace allot
