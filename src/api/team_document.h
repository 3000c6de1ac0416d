// Decoder for the `spec` of a Team: its namespace, cohort, quota per flavor,
// preemption policy, queueing strategy, allowed priority classes, owners,
// network (egressNamespaces: the Kubernetes namespaces its pods may reach) and
// storage settings.
//
// Contract: spec.namespace defaults to metadata.name; fairShareWeight must be
// >= 0; quota follows decode_quota() (resource_fields.h). References to
// cohorts, flavors and priority classes are not resolved here (see
// validate_policy()). network.egressNamespaces are namespace names (DNS-1123
// labels), each once, kept sorted. Stateless.
#pragma once

#include "api/manifest_fields.h"
#include "base/result.h"
#include "model/object_meta.h"
#include "model/team.h"

namespace allot {

Result<Team> decode_team(ObjectMeta meta, const Field& spec);

}  // namespace allot
