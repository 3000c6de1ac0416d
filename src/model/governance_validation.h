// check_governance(): the checks of validate_policy() on the organisation
// level and the contracts (issue 15, items 2 and 3).
//
// Contract: pure. At most one Organization, whose dataClassifications are
// unique, non-empty names; with one, every Cluster's maxDataClassification
// is empty or one of them. A Contract needs the Organization; its
// dataClassification is a level, its cluster an applied Cluster (account,
// region, orchestrator and orchestratorVersion, when given, agree with it),
// its namespaces those of applied Teams (at least one namespace or a
// slurmScope). A PolicyException names an applied Team, and what it relaxes
// exists (a ResourceFlavor, a PriorityClass, a level of the Organization);
// its approver is not its owner. The Status names the object and the field at fault. That the
// owners exist in the directory is the service's check (it needs the
// directory).
#pragma once

#include "base/status.h"

namespace allot {

struct Policy;

Status check_governance(const Policy& policy);

}  // namespace allot
