#include "authz/resource_catalog.h"

#include <array>

namespace allot {
namespace {

constexpr std::array kResources = {
    ResourceInfo{"workloads", kAllotApiGroup, true},
    ResourceInfo{"workloads/logs", kAllotApiGroup, true},
    ResourceInfo{"workloads/exec", kAllotApiGroup, true},
    ResourceInfo{"workloads/scale", kAllotApiGroup, true},
    ResourceInfo{"workloads/checkpoint", kAllotApiGroup, true},
    ResourceInfo{"workloads/resume", kAllotApiGroup, true},
    ResourceInfo{"events", kAllotApiGroup, true},
    ResourceInfo{"reports", kAllotApiGroup, true},
    ResourceInfo{"metrics", kAllotApiGroup, true},
    ResourceInfo{"serviceaccounts", kAllotApiGroup, true},
    ResourceInfo{"serviceaccounts/token", kAllotApiGroup, true},
    ResourceInfo{"roles", kRbacApiGroup, true},
    ResourceInfo{"rolebindings", kRbacApiGroup, true},
    ResourceInfo{"teams", kAllotApiGroup, false},
    ResourceInfo{"cohorts", kAllotApiGroup, false},
    ResourceInfo{"clusters", kAllotApiGroup, false},
    ResourceInfo{"resourceflavors", kAllotApiGroup, false},
    ResourceInfo{"nodepools", kAllotApiGroup, false},
    ResourceInfo{"nodes", kAllotApiGroup, false},
    ResourceInfo{"priorityclasses", kAllotApiGroup, false},
    ResourceInfo{"budgets", kAllotApiGroup, false},
    // Issue 15: the organisation level and the connection contracts.
    ResourceInfo{"organizations", kAllotApiGroup, false},
    ResourceInfo{"contracts", kAllotApiGroup, false},
    // Issue 15, item 7: a project's evidence report (GET /api/v1/evidence).
    ResourceInfo{"contracts/evidence", kAllotApiGroup, false},
    // Issue 15, item 6: PolicyExceptions (allot get exceptions).
    ResourceInfo{"policyexceptions", kAllotApiGroup, false},
    ResourceInfo{"signals", kAllotApiGroup, false},
    ResourceInfo{"clusterroles", kRbacApiGroup, false},
    ResourceInfo{"clusterrolebindings", kRbacApiGroup, false},
    // The audit log's records (GET /api/v1/audit): cluster-admin by default.
    ResourceInfo{"auditevents", kAllotApiGroup, false},
};

constexpr std::array<std::string_view, 16> kVerbs = {
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
    "cancel",
    "bind",
    "escalate",
    // The transitions of a Contract (issue 15).
    "approve",
    "activate",
    "review",
    "renew",
    "revoke",
};

}  // namespace

std::span<const ResourceInfo> allot_resources() { return kResources; }

std::string_view api_group_of(std::string_view resource) {
  const std::string_view base = resource.substr(0, resource.find('/'));
  if (base == "roles" || base == "clusterroles" || base == "rolebindings" ||
      base == "clusterrolebindings") {
    return kRbacApiGroup;
  }
  return kAllotApiGroup;
}

std::span<const std::string_view> allot_verbs() { return kVerbs; }

}  // namespace allot
