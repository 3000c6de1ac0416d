// desired_accounting(): allot's policy as Slurm's accounting would hold it
// (the mapping is described in sync_plan.h and docs/slurm.md): the account
// associations (allot's root, cohorts, teams) and user associations, and one
// QoS per priority class. Pure; deterministic.
#pragma once

#include <string>

#include "backends/policy_sync.h"
#include "backends/slurm/slurm_accounting.h"

namespace allot::slurm {

// Accounts in creation order (every parent before its children), then the
// user associations; QoS in the policy's order.
SlurmAccounting desired_accounting(const BackendPolicy& policy);

// The Description that marks a QoS as allot's.
std::string qos_marker(const std::string& root);

// The GrpTRES of a team's ceiling.
TresMap ceiling_tres(const SyncedTeam& team, bool typed_gres);

}  // namespace allot::slurm
