// Who reads a Budget besides the cluster-wide callers (`get`/`list` on
// budgets everywhere; docs/cost.md, Budgets):
// - a team budget (spec.team): the roles that grant `get`/`list` on budgets
//   in the team's namespace (team-admin, team-member, team-viewer);
// - a project budget (spec.project): the same roles in any namespace of the
//   Contract it names, and that Contract's owners (contract_state.h
//   is_contract_owner(): business, operations, cost, schedulingPolicyOwner,
//   exceptionOwner, by name or group). Another team sees nothing of it.
//
// Contract: pure functions of the policy and the caller; the caller's RBAC
// rights are asked by the caller of these (policy_service.cc).
#pragma once

#include <string>
#include <vector>

#include "model/policy.h"
#include "model/principal.h"

namespace allot {

// The namespaces where `budget`'s readers hold their roles: its team's, or
// its contract's; empty when there is no such budget, team or contract.
std::vector<std::string> budget_namespaces(const Policy& policy, const std::string& budget);

// Whether `caller` owns the Contract that the project budget `budget` names
// (false for a team budget or an unknown one).
bool owns_budget_contract(const Policy& policy, const Principal& caller, const std::string& budget);

// Whether `caller` owns the Contract of any project budget.
bool owns_any_budget_contract(const Policy& policy, const Principal& caller);

}  // namespace allot
