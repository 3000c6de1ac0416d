#include "api/resource_kinds.h"

#include <algorithm>
#include <cctype>
#include <string>

#include "base/check.h"

namespace allot {
namespace {

const std::vector<KindInfo>& kind_table() {
  static const std::vector<KindInfo> kTable = {
      {ResourceKind::kWorkload, "Workload", "workloads", "workload", {"wl"}, true},
      {ResourceKind::kTeam, "Team", "teams", "team", {}},
      {ResourceKind::kNode, "Node", "nodes", "node", {"no"}},
      {ResourceKind::kCohort, "Cohort", "cohorts", "cohort", {}},
      {ResourceKind::kPriorityClass, "PriorityClass", "priorityclasses", "priorityclass", {"pc"}},
      {ResourceKind::kResourceFlavor,
       "ResourceFlavor",
       "resourceflavors",
       "resourceflavor",
       {"flavor", "flavors", "rf"}},
      {ResourceKind::kNodePool, "NodePool", "nodepools", "nodepool", {"np"}},
      {ResourceKind::kCluster, "Cluster", "clusters", "cluster", {}},
      {ResourceKind::kRole, "Role", "roles", "role", {}, true},
      {ResourceKind::kClusterRole, "ClusterRole", "clusterroles", "clusterrole", {}},
      {ResourceKind::kRoleBinding, "RoleBinding", "rolebindings", "rolebinding", {}, true},
      {ResourceKind::kClusterRoleBinding,
       "ClusterRoleBinding",
       "clusterrolebindings",
       "clusterrolebinding",
       {}},
      {ResourceKind::kBudget, "Budget", "budgets", "budget", {}},
      {ResourceKind::kOrganization, "Organization", "organizations", "organization", {"org"}},
      {ResourceKind::kContract, "Contract", "contracts", "contract", {}},
      {ResourceKind::kSignal, "Signal", "signals", "signal", {}},
      {ResourceKind::kPolicyException,
       "PolicyException",
       "policyexceptions",
       "policyexception",
       {"exception", "exceptions", "pe"}},
  };
  return kTable;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool names_kind(const KindInfo& info, const std::string& name) {
  return name == info.plural || name == info.singular ||
         std::find(info.short_names.begin(), info.short_names.end(), name) !=
             info.short_names.end();
}

}  // namespace

bool is_rbac(ResourceKind kind) {
  return kind == ResourceKind::kRole || kind == ResourceKind::kClusterRole ||
         kind == ResourceKind::kRoleBinding || kind == ResourceKind::kClusterRoleBinding;
}

Result<KindInfo> parse_resource_kind(std::string_view text) {
  const std::string name = lower(text);
  for (const KindInfo& info : kind_table()) {
    if (names_kind(info, name)) return info;
  }
  std::string kinds;
  for (const KindInfo& info : kind_table()) {
    kinds += (kinds.empty() ? "" : ", ") + std::string(info.plural);
  }
  return invalid_argument("unknown kind '" + std::string(text) + "'; expected one of " + kinds);
}

const KindInfo& kind_info(ResourceKind kind) {
  for (const KindInfo& info : kind_table()) {
    if (info.kind == kind) return info;
  }
  ALLOT_CHECK(false);
  return kind_table().front();
}

const KindInfo* kind_by_manifest_name(std::string_view manifest_kind) {
  for (const KindInfo& info : kind_table()) {
    if (info.manifest_kind == manifest_kind) return &info;
  }
  return nullptr;
}

const KindInfo* kind_by_plural(std::string_view plural) {
  for (const KindInfo& info : kind_table()) {
    if (info.plural == plural) return &info;
  }
  return nullptr;
}

}  // namespace allot
