// Policy objects as the policy room serves them: the applied documents, and
// the built-in RBAC objects that no one applied.
//
// Contract: pure. object_view() makes the view of one stored document,
// splitting a namespaced key ("research/admins") into namespace and name.
// builtin_objects() are the built-in ClusterRoles (cluster-admin,
// team-admin, team-member, team-viewer) for "ClusterRole" and the
// ClusterRoleBinding system:admins for "ClusterRoleBinding", as manifests
// (api/rbac_json.h) labelled allot.dev/builtin=true; none for other kinds.
#pragma once

#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/views/policy_view.h"
#include "service/control/policy_state.h"

namespace allot {

PolicyObjectView object_view(const DocumentKey& key, const nlohmann::json& document);

std::vector<PolicyObjectView> builtin_objects(std::string_view kind);

}  // namespace allot
