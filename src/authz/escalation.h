// Escalation prevention, as Kubernetes does it: nobody grants what they do
// not hold.
//
// Contract: pure functions over a compiled Authorizer. Each answers whether
// `principal` may write (`verb`: create or update) one RBAC object, as a
// Decision with its reason; the write itself must also be allowed (the first
// thing each checks, with the ordinary rules: create roles, create
// rolebindings, ...).
//   - A Role or ClusterRole: allowed when the principal holds every
//     permission the role grants (rule_covers.h) where the role applies (the
//     role's namespace; the cluster scope for a ClusterRole), or holds
//     `escalate` on it. Setting a ClusterRole's aggregationRule needs every
//     permission there is (what cluster-admin holds), since it can gather
//     anything, or `escalate`.
//   - A RoleBinding or ClusterRoleBinding: allowed when the principal holds
//     every permission of the referenced role where the binding applies (its
//     namespace; the cluster scope), or holds `bind` on that role (resource
//     roles or clusterroles, named by the roleRef). A binding to a role that
//     does not exist needs `bind`.
// So a team-admin cannot bind cluster-admin even in its own namespace:
// cluster-admin's "*" rules are more than team-admin's named resources.
// A scoped session holds only what both its bindings and its scope grant.
#pragma once

#include <string_view>

#include "authz/authorizer.h"
#include "authz/decision.h"
#include "model/principal.h"
#include "model/rbac/role.h"
#include "model/rbac/role_binding.h"

namespace allot {

Decision check_role_write(const Authorizer& authorizer, const Principal& principal,
                          std::string_view verb, const Role& role);
Decision check_cluster_role_write(const Authorizer& authorizer, const Principal& principal,
                                  std::string_view verb, const ClusterRole& role);
Decision check_role_binding_write(const Authorizer& authorizer, const Principal& principal,
                                  std::string_view verb, const RoleBinding& binding);
Decision check_cluster_role_binding_write(const Authorizer& authorizer, const Principal& principal,
                                          std::string_view verb, const ClusterRoleBinding& binding);

}  // namespace allot
