// Who reads a Budget besides the cluster-wide callers (`get`/`list` on
// budgets everywhere; docs/cost.md, Budgets):
// - a team budget (spec.team): the roles that grant `get`/`list` on budgets
//   in the team's namespace (team-admin, team-member, team-viewer);
// - a project budget (spec.project): the same roles in any namespace of the
//   Contract it names, and that Contract's owners (contract_state.h
//   is_contract_owner(): business, operations, cost, schedulingPolicyOwner,
//   exceptionOwner, by name or group). Another team sees nothing of it.
//
// One rule for every reader: the API's lists and gets of Budgets
// (policy_service.cc) and their series on /metrics (metrics_service.cc).
//
// Contract: pure functions of the policy and the caller, but
// budget_list_reach(), which asks AccessControl where the caller may list
// budgets.
#pragma once

#include <string>
#include <vector>

#include "model/policy.h"
#include "model/principal.h"
#include "service/control/access_control.h"
#include "service/control/caller_rights.h"

namespace allot {

// The namespaces where `budget`'s readers hold their roles: its team's, or
// its contract's; empty when there is no such budget, team or contract.
std::vector<std::string> budget_namespaces(const Policy& policy, const std::string& budget);

// Whether `caller` owns the Contract that the project budget `budget` names
// (false for a team budget or an unknown one).
bool owns_budget_contract(const Policy& policy, const Principal& caller, const std::string& budget);

// Whether `caller` owns the Contract of any project budget.
bool owns_any_budget_contract(const Policy& policy, const Principal& caller);

// Where `caller` may list budgets: everywhere (cluster-wide `list budgets`),
// or the namespaces where its roles list them (none: nowhere).
VisibleNamespaces budget_list_reach(const AccessControl& access, const Principal& caller);

// Whether `caller`, who lists budgets in `reach`, reads the budget `budget`:
// everywhere, in one of budget_namespaces(), or as an owner of its Contract.
bool budget_readable(const Policy& policy, const VisibleNamespaces& reach, const Principal& caller,
                     const std::string& budget);

}  // namespace allot
