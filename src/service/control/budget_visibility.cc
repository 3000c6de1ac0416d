#include "service/control/budget_visibility.h"

#include <utility>

#include "service/control/contract_state.h"

namespace allot {
namespace {

const Budget* find_visible_budget(const Policy& policy, const std::string& name) {
  for (const Budget& b : policy.budgets) {
    if (b.meta.name == name) return &b;
  }
  return nullptr;
}

const Contract* budget_contract(const Policy& policy, const Budget& budget) {
  if (budget.spec.project.empty()) return nullptr;
  for (const Contract& c : policy.contracts) {
    if (c.meta.name == budget.spec.project) return &c;
  }
  return nullptr;
}

}  // namespace

std::vector<std::string> budget_namespaces(const Policy& policy, const std::string& budget) {
  const Budget* found = find_visible_budget(policy, budget);
  if (found == nullptr) return {};
  if (const Contract* contract = budget_contract(policy, *found)) return contract->spec.namespaces;
  const Team* team = policy.find_team(found->spec.team);
  if (team == nullptr) return {};
  return {team->namespace_name.empty() ? team->meta.name : team->namespace_name};
}

bool owns_budget_contract(const Policy& policy, const Principal& caller,
                          const std::string& budget) {
  const Budget* found = find_visible_budget(policy, budget);
  if (found == nullptr) return false;
  const Contract* contract = budget_contract(policy, *found);
  return contract != nullptr && is_contract_owner(caller, contract->spec);
}

bool owns_any_budget_contract(const Policy& policy, const Principal& caller) {
  for (const Budget& b : policy.budgets) {
    const Contract* contract = budget_contract(policy, b);
    if (contract != nullptr && is_contract_owner(caller, contract->spec)) return true;
  }
  return false;
}

VisibleNamespaces budget_list_reach(const AccessControl& access, const Principal& caller) {
  if (access.authorize(caller, "list", "budgets", "").ok()) return VisibleNamespaces{true, {}};
  Result<VisibleNamespaces> reach = visible_namespaces(access, caller, "budgets", {});
  return reach.ok() ? *std::move(reach) : VisibleNamespaces{};
}

bool budget_readable(const Policy& policy, const VisibleNamespaces& reach, const Principal& caller,
                     const std::string& budget) {
  if (reach.everywhere) return true;
  for (const std::string& ns : budget_namespaces(policy, budget)) {
    if (reach.contains(ns)) return true;
  }
  return owns_budget_contract(policy, caller, budget);
}

}  // namespace allot
