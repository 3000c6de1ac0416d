// What a contract's revocation takes away (issue 15, item 5; DESIGN.md
// section 8): the namespaces whose work is drained and whose RoleBindings
// are removed.
//
// Contract: pure. A project's workloads are those in its contract's
// namespaces; a revocation drains (pending work cancelled, running work
// stopped with its grace period) and unbinds the contract's namespaces that
// no other contract still in force (Active or UnderReview) covers, since
// such a contract still lets that work run. RoleBindings are not tied to
// contracts: every RoleBinding of a drained namespace is the project's.
// Nothing outside those namespaces is named. `statuses` are by contract
// name (a contract without one is Draft); an unknown contract has none.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/contract.h"
#include "model/policy.h"
#include "model/rbac/rbac_policy.h"

namespace allot {

// The contract's namespaces to drain, in the contract's order.
std::vector<std::string> revocation_namespaces(
    const Policy& policy, const std::map<std::string, ContractStatus>& statuses,
    const std::string& contract);

// The RoleBindings of `namespaces`, as (namespace, name), in `rbac`'s order.
std::vector<std::pair<std::string, std::string>> revocation_bindings(
    const RbacPolicy& rbac, const std::vector<std::string>& namespaces);

}  // namespace allot
