// ClusterRole aggregation: the rules of a ClusterRole with an aggregation
// rule are the union of the rules of the other ClusterRoles its selectors
// match, as Kubernetes' clusterrole-aggregation controller makes them.
//
// Contract: pure. A ClusterRole matches a selector when its labels hold every
// label of the selector; an empty selector matches nothing. Aggregation
// nests (an aggregated role may itself be aggregated); a cycle contributes
// each role once. The result keeps the input's order of roles; an
// aggregated role's rules come from its matches in input order, without
// repeats, and replace its own.
#pragma once

#include <vector>

#include "model/rbac/role.h"

namespace allot {

std::vector<ClusterRole> aggregate_cluster_roles(std::vector<ClusterRole> roles);

}  // namespace allot
