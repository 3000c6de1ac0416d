// RBAC manifests: a multi-document text (YAML, or JSON, which is YAML) of
// Roles, ClusterRoles, RoleBindings and ClusterRoleBindings into an
// RbacPolicy, for `allot apply` once the kinds join the apply pipeline, for
// tests, and for files written for Kubernetes.
//
// Contract: all or nothing, like parse_manifests(): one bad document is an
// error and no policy. Each document is decoded by decode_rbac_document()
// (rbac_documents.h); errors are located like the other manifests':
//   details = "rbac.yaml: document 2 (RoleBinding/members): subjects[0].kind"
// The text must be well-formed UTF-8 with no YAML aliases and at most 64
// levels of nesting (yaml_shape.h); empty documents are skipped; a kind
// that is not RBAC is an error naming the four. Objects keep their order.
// Nothing throws.
#pragma once

#include <string_view>

#include "base/result.h"
#include "model/rbac/rbac_policy.h"

namespace allot {

Result<RbacPolicy> parse_rbac_manifests(std::string_view text, std::string_view source_name = {});

}  // namespace allot
