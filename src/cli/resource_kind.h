// ResourceKind: the KIND argument of `allot get`, `describe` and `delete`.
//
// Contract: parse_resource_kind() accepts, in any case, a kind's plural
// ("workloads"), singular ("workload"), manifest name ("PriorityClass") and
// short forms ("wl", "pc", "flavors", "np", "no"); anything else is
// kInvalidArgument listing the kinds. Workloads are the only namespaced kind.
// Pure; the table is static.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace allot::cli {

enum class ResourceKind {
  kWorkload,
  kTeam,
  kNode,
  kCohort,
  kPriorityClass,
  kResourceFlavor,
  kNodePool,
  kCluster,
};

struct KindInfo {
  ResourceKind kind;
  std::string_view manifest_kind;  // "PriorityClass"
  std::string_view plural;         // the API path segment: "priorityclasses"
  std::string_view singular;       // "priorityclass", as in "priorityclass/batch"
  std::vector<std::string_view> short_names;
};

Result<KindInfo> parse_resource_kind(std::string_view text);

// The entry of a kind. REQUIRES: nothing (every kind has one).
const KindInfo& kind_info(ResourceKind kind);

// The entry whose manifest kind is `manifest_kind` ("Team"), or nullptr.
const KindInfo* kind_by_manifest_name(std::string_view manifest_kind);

}  // namespace allot::cli
