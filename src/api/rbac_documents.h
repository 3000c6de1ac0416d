// Decoders of the RBAC kinds (issue 11): Role, ClusterRole, RoleBinding and
// ClusterRoleBinding, in Kubernetes' own shape, so that Kubernetes RBAC
// files mean the same here.
//
// Contract: decode_rbac_document() reads one whole document: `apiVersion`
// (allot/v1 or rbac.authorization.k8s.io/v1), `kind`, `metadata` and, at the
// top level (not under `spec`), `rules` and `aggregationRule` (roles) or
// `subjects` and `roleRef` (bindings). Errors are invalid_argument with
// details = the field path within the document ("rules[0].verbs",
// "subjects[1].kind") and a message that says why, with the line and column
// for YAML; parse_rbac_manifests() (rbac_manifests.h) prefixes the document.
// Unknown fields, `spec` and `status` are errors.
//
// Names: Role and RoleBinding need metadata.namespace; the cluster kinds
// refuse one. RBAC object and role names follow Kubernetes (any path
// segment: "system:admins" is a name; no '/', no '%', not "." or "..").
// metadata.annotations are accepted and dropped (Kubernetes files carry
// them; allot keeps none).
//
// Rules: verbs are required; a resource rule needs apiGroups ("" is
// Kubernetes' core group) and resources ("workloads", "workloads/logs",
// "*", "*/logs"); a non-resource rule lists nonResourceURLs ("/path", a
// "/prefix/*" or "*"), only in a ClusterRole, never with resources or
// resourceNames. aggregationRule takes clusterRoleSelectors with matchLabels
// (matchExpressions are refused as not supported yet).
//
// Subjects: kind User, Group or ServiceAccount; a ServiceAccount of a
// RoleBinding defaults to the binding's namespace, one of a
// ClusterRoleBinding must name it; User and Group take no namespace.
// apiGroup, when written, must be rbac.authorization.k8s.io (User, Group) or
// "" (ServiceAccount). roleRef: kind Role or ClusterRole (a
// ClusterRoleBinding: ClusterRole only), a name, and apiGroup
// rbac.authorization.k8s.io when written. Stateless; nothing throws.
#pragma once

#include <string_view>
#include <variant>

#include "api/doc_node.h"
#include "base/result.h"
#include "model/rbac/rbac_policy.h"
#include "model/rbac/role.h"
#include "model/rbac/role_binding.h"

namespace allot {

using RbacObject = std::variant<Role, ClusterRole, RoleBinding, ClusterRoleBinding>;

// Whether `kind` is Role, ClusterRole, RoleBinding or ClusterRoleBinding.
bool is_rbac_kind(std::string_view kind);

Result<RbacObject> decode_rbac_document(const DocNode& document);

// Appends `object` to the list of its kind in `policy`.
void add_rbac_object(RbacObject object, RbacPolicy& policy);

}  // namespace allot
