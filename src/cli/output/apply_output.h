// ApplyOutput: what `allot apply` prints for the answer of POST
// /api/v1/apply (docs/api.md, "Apply").
//
// Contract: one line per change, kubectl style, "<kind lower>.allot/<name>
// <action>" ("team.allot/research configured"); the RBAC kinds are in
// their Kubernetes group, and Roles and RoleBindings name their namespace
// ("rolebinding.rbac.authorization.k8s.io/members -n research created"); with " (dry run)" appended
// when the answer says dryRun; a configured object's diff follows, each of
// its lines indented by four spaces. Changes keep the server's order. Pure.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace allot::cli {

std::string apply_summary(const nlohmann::json& answer);

}  // namespace allot::cli
