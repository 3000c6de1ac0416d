#include "authz/role_aggregation.h"

#include <algorithm>
#include <map>
#include <string>

namespace allot {
namespace {

bool selector_matches(const std::map<std::string, std::string>& selector, const ObjectMeta& meta) {
  if (selector.empty()) return false;
  return std::all_of(selector.begin(), selector.end(), [&](const auto& label) {
    const auto found = meta.labels.find(label.first);
    return found != meta.labels.end() && found->second == label.second;
  });
}

bool aggregates(const ClusterRole& role, const ClusterRole& candidate) {
  if (!role.aggregation || &role == &candidate) return false;
  const auto& selectors = role.aggregation->cluster_role_selectors;
  return std::any_of(selectors.begin(), selectors.end(), [&](const auto& selector) {
    return selector_matches(selector, candidate.meta);
  });
}

void add_unique(const std::vector<PolicyRule>& rules, std::vector<PolicyRule>& out) {
  for (const PolicyRule& rule : rules) {
    if (std::find(out.begin(), out.end(), rule) == out.end()) out.push_back(rule);
  }
}

// The rules of roles[index], following aggregation depth first; `visiting`
// marks the roles on the current path, so that a cycle ends.
std::vector<PolicyRule> resolved_rules(const std::vector<ClusterRole>& roles, size_t index,
                                       std::vector<bool>& visiting) {
  const ClusterRole& role = roles[index];
  if (!role.aggregation) return role.rules;
  visiting[index] = true;
  std::vector<PolicyRule> rules;
  for (size_t i = 0; i < roles.size(); ++i) {
    if (visiting[i] || !aggregates(role, roles[i])) continue;
    add_unique(resolved_rules(roles, i, visiting), rules);
  }
  visiting[index] = false;
  return rules;
}

}  // namespace

std::vector<ClusterRole> aggregate_cluster_roles(std::vector<ClusterRole> roles) {
  std::vector<std::vector<PolicyRule>> resolved(roles.size());
  std::vector<bool> visiting(roles.size(), false);
  for (size_t i = 0; i < roles.size(); ++i) {
    if (roles[i].aggregation) resolved[i] = resolved_rules(roles, i, visiting);
  }
  for (size_t i = 0; i < roles.size(); ++i) {
    if (roles[i].aggregation) roles[i].rules = std::move(resolved[i]);
  }
  return roles;
}

}  // namespace allot
