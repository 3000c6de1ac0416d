// ResourceKind: the kinds of object the API serves, under every name they go
// by: the plural of the API path ("priorityclasses"), the manifest kind
// ("PriorityClass"), the singular ("priorityclass", as in
// "priorityclass/batch") and short forms ("pc"). The one table of them, for
// the CLI's KIND arguments and the server's paths.
//
// Contract: parse_resource_kind() accepts, in any case, a kind's plural
// ("workloads"), singular ("workload"), manifest name ("PriorityClass") and
// short forms ("wl", "pc", "flavors", "np", "no"); anything else is
// kInvalidArgument listing the kinds. kind_by_plural() and
// kind_by_manifest_name() match exactly (case included), as paths and
// manifests are written. Workloads, Roles and RoleBindings are namespaced;
// the RBAC kinds have no short forms (as in kubectl). Pure; the table is
// static and its entries live as long as the program.
#pragma once

#include <string_view>
#include <vector>

#include "base/result.h"

namespace allot {

enum class ResourceKind {
  kWorkload,
  kTeam,
  kNode,
  kCohort,
  kPriorityClass,
  kResourceFlavor,
  kNodePool,
  kCluster,
  kRole,
  kClusterRole,
  kRoleBinding,
  kClusterRoleBinding,
  kBudget,
  kOrganization,
  kContract,
  kSignal,
  kPolicyException,
};

struct KindInfo {
  ResourceKind kind;
  std::string_view manifest_kind;  // "PriorityClass"
  std::string_view plural;         // the API path segment: "priorityclasses"
  std::string_view singular;       // "priorityclass", as in "priorityclass/batch"
  std::vector<std::string_view> short_names;
  bool namespaced = false;  // lives in a namespace (a team's)
};

// The RBAC kinds: Role, ClusterRole, RoleBinding, ClusterRoleBinding.
bool is_rbac(ResourceKind kind);

Result<KindInfo> parse_resource_kind(std::string_view text);

// The entry of a kind. REQUIRES: nothing (every kind has one).
const KindInfo& kind_info(ResourceKind kind);

// The entry whose manifest kind is `manifest_kind` ("Team"), or nullptr.
const KindInfo* kind_by_manifest_name(std::string_view manifest_kind);

// The entry whose API path segment is `plural` ("priorityclasses"), or nullptr.
const KindInfo* kind_by_plural(std::string_view plural);

}  // namespace allot
