// The built-in roles of DESIGN.md section 4, and the binding that makes
// allotd's own principals (Principal::anonymous_admin(), system()) admins.
//
// Contract: pure; the same objects every call.
//   cluster-admin: every verb on every resource and URL, everywhere.
//   team-admin:    every ordinary verb (not bind, not escalate) on the
//                  resources of a namespace: workloads and their logs, exec
//                  and scale, events, service accounts and their tokens
//                  (the subresource serviceaccounts/token), Roles and
//                  RoleBindings. It names them rather than holding "*", so
//                  that, as in Kubernetes, it cannot bind cluster-admin even
//                  in its own namespace (cluster-admin holds rules it lacks).
//   team-member:   get, list, watch workloads, their logs and events; create
//                  (submit) and cancel workloads.
//   team-viewer:   get, list, watch workloads, their logs and events.
//   contract-approver: get, list, watch, create, update contracts and make
//                  their transitions (verbs approve, activate, review, renew,
//                  revoke: issue 15) and get their evidence
//                  (contracts/evidence); get, list, watch, create, update,
//                  delete policyexceptions; get, list, watch organizations,
//                  clusters and teams. Bound by a ClusterRoleBinding.
// The team roles are ClusterRoles, bound per team by RoleBindings in the
// team's namespace (Kubernetes' admin, edit and view work the same way).
// with_builtin_roles() adds them to a policy, replacing any object of the
// same name: built-ins cannot be redefined.
#pragma once

#include <string_view>
#include <vector>

#include "model/rbac/rbac_policy.h"

namespace allot {

inline constexpr std::string_view kClusterAdmin = "cluster-admin";
inline constexpr std::string_view kTeamAdmin = "team-admin";
inline constexpr std::string_view kContractApprover = "contract-approver";
inline constexpr std::string_view kTeamMember = "team-member";
inline constexpr std::string_view kTeamViewer = "team-viewer";
// The group of allotd's own principals, bound to cluster-admin by the
// ClusterRoleBinding named kAdminsBinding.
inline constexpr std::string_view kAdminsGroup = "system:admins";
inline constexpr std::string_view kAdminsBinding = "system:admins";

std::vector<ClusterRole> builtin_cluster_roles();
std::vector<ClusterRoleBinding> builtin_cluster_role_bindings();

RbacPolicy with_builtin_roles(RbacPolicy policy);

}  // namespace allot
