// Rule coverage: whether one set of rules holds every permission of another,
// the test behind escalation prevention (escalation.h), with Kubernetes'
// semantics.
//
// Contract: pure. The servant rules are split into atomic rules (one verb,
// one group, one resource, one name or none; or one verb and one URL) and
// each must be covered by one owner rule. A "*" in the servant is covered
// only by "*" in the owner (it grants verbs, groups or resources that do not
// exist yet), "*/logs" only by "*/logs" or "*"; a servant rule without
// resourceNames only by an owner rule without them. The answer lists the
// atomic rules that nothing covers, in the servant's order, so that a
// refusal can say what is missing.
#pragma once

#include <span>
#include <vector>

#include "model/rbac/policy_rule.h"

namespace allot {

// Every atomic rule of `rules`, in order (verbs within groups within resources within names).
std::vector<PolicyRule> atomic_rules(std::span<const PolicyRule> rules);

// Whether `owner` alone covers the atomic rule `atom`.
bool rule_covers(const PolicyRule& owner, const PolicyRule& atom);

// The atomic rules of `servant` that no rule of `owner` covers; empty when
// `owner` holds everything `servant` grants.
std::vector<PolicyRule> uncovered_rules(std::span<const PolicyRule> owner,
                                        std::span<const PolicyRule> servant);

}  // namespace allot
