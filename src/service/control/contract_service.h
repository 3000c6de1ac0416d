// ContractService: the lifecycle transitions of connection contracts (issue
// 15, item 3): POST /api/v1/contracts/{name}/{approve|activate|review|renew|revoke}.
//
// Contract: each transition is authorised first as the RBAC verb of its
// name (approve, activate, review, renew, revoke) on the cluster-scoped
// resource `contracts` (built-in ClusterRole contract-approver, or
// cluster-admin), then made by the caller, as the named person, with its
// reason, by governance/contract_lifecycle.h (kFailedPrecondition from the
// wrong phase, kPermissionDenied for self-approval, kInvalidArgument for no
// reason), stored (kind ContractStatus) and installed as one ordered change
// (cluster_state.h): the answer comes once it is durable. A transition wakes
// the admission loop: activation admits, revocation keeps new work out.
// Contracts are created, changed and deleted by apply and delete
// (policy_service.h, contract_state.h). Thread-safe.
#pragma once

#include <string>

#include "base/clock.h"
#include "base/result.h"
#include "model/contract.h"
#include "model/principal.h"
#include "model/views/policy_view.h"
#include "service/control/cluster_state.h"
#include "service/control/loop_signal.h"

namespace allot {

class ContractService {
 public:
  ContractService(ClusterState& cluster, LoopSignal& signal, const Clock& clock)
      : cluster_(cluster), signal_(signal), clock_(clock) {}

  // The contract as it is after the transition, with its status.
  Result<PolicyObjectView> transition(const Principal& caller, const std::string& name,
                                      ContractAction action, const std::string& reason);

 private:
  ClusterState& cluster_;
  LoopSignal& signal_;
  const Clock& clock_;
};

}  // namespace allot
