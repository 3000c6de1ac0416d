// RBAC validation: whether a set of applied RBAC objects may stand in allot's
// policy, beyond what decoding one document checks (api/rbac_documents.h).
//
// Contract: pure. validate_rbac() returns the first fault, located at the
// object and field ("RoleBinding/research/members.metadata.namespace"):
//   - a Role or RoleBinding lives in a team's namespace (one of
//     `team_namespaces`); anywhere else it would bind nothing anyone can
//     reach, and no team would own it (kNotFound: a dangling reference);
//   - a built-in ClusterRole (cluster-admin, team-admin, team-member,
//     team-viewer) or the built-in ClusterRoleBinding system:admins cannot
//     be redefined (kInvalidArgument): with_builtin_roles() would silently
//     replace it, and its meaning is allot's, not a policy's.
// Names repeated within a kind (per namespace for the namespaced kinds) are
// kInvalidArgument too, though allotd's documents are unique by key.
// is_builtin_rbac_name() says whether `kind`/`name` names a built-in.
#pragma once

#include <set>
#include <string>
#include <string_view>

#include "base/result.h"
#include "base/status.h"
#include "model/rbac/rbac_policy.h"

namespace allot {

Status validate_rbac(const RbacPolicy& rbac, const std::set<std::string>& team_namespaces);

// `kind` is "ClusterRole" or "ClusterRoleBinding"; false for any other kind.
bool is_builtin_rbac_name(std::string_view kind, std::string_view name);

}  // namespace allot
