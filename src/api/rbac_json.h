// Encoders of the RBAC kinds into their manifests (Kubernetes' shape, the
// inverse of rbac_documents.h): how allotd serves objects it did not store
// as applied documents, such as the built-in roles (authz/builtin_roles.h).
//
// Contract: pure; never throw. apiVersion is rbac.authorization.k8s.io/v1;
// metadata has name, namespace (namespaced kinds only) and labels (when
// any); empty rule lists are left out, as Kubernetes leaves them out.
// decode_rbac_document() of the result gives the object back.
#pragma once

#include <nlohmann/json.hpp>

#include "model/rbac/role.h"
#include "model/rbac/role_binding.h"

namespace allot {

nlohmann::json role_json(const Role& role);
nlohmann::json cluster_role_json(const ClusterRole& role);
nlohmann::json role_binding_json(const RoleBinding& binding);
nlohmann::json cluster_role_binding_json(const ClusterRoleBinding& binding);

}  // namespace allot
