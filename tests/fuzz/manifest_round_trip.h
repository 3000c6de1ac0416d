// check_manifest_batch(): what allotd and `allot simulate` do with a batch of
// manifests, with the properties that must hold for any text a user sends.
//
// Contract: parses `text` as `POST /api/v1/apply` and a submit do
// (parse_manifests_with_documents, the Workload defaults filled in), then for
// a batch that parses:
// - every document's JSON dumps (the stored and served form);
// - a policy that validates compiles with its node pools expanded, and its
//   stored form (each document's JSON, as PolicyState reloads it after a
//   restart) parses back to the same Policy: an applied policy that cannot
//   load again would leave allotd in safe mode; the same for the RBAC
//   objects (Role, ClusterRole, RoleBinding, ClusterRoleBinding);
// - every Workload's stored JSON (encode_workload) decodes to the same one.
// A property that fails aborts (fuzz_expect.h); nothing here may throw.
#pragma once

#include <string_view>

namespace allot::fuzz {

void check_manifest_batch(std::string_view text);

}  // namespace allot::fuzz
