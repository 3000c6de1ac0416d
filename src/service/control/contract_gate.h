// Contracts at admission, in allotd (issue 15, item 4): the pure verdict of
// governance/contract_admission.h applied to a live workload and to a submit.
//
// Contract: pure functions of the state, under its lock, under the policy
// with its active PolicyExceptions (PolicyState::effective()). A pending workload
// with a refusal stays out of the scheduler's snapshot (admission_cycle.h)
// and `allot describe` shows the refusal's reason and message
// (workload_explanation.h); running work runs on. A submit that can never run
// under the contracts in force (KindNotApproved, ClassificationAboveCluster)
// is refused at once: kFailedPrecondition "<Reason>: <message>", field spec.kind.
#pragma once

#include <optional>

#include "base/status.h"
#include "base/time.h"
#include "governance/contract_admission.h"
#include "model/workload.h"
#include "service/control/server_state.h"

namespace allot {

std::optional<ContractVerdict> contract_refusal_of(const LiveWorkload& live,
                                                   const ServerState& state, Timestamp now);

Status check_submit_contracts(const ServerState& state, const Workload& workload, Timestamp now);

}  // namespace allot
