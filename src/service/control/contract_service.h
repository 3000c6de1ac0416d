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
// - A revocation also takes the project away (issue 15, item 5): first the
//   RoleBindings of the namespaces it drains are removed (one policy change,
//   policy_service.h), then, in the same change as the transition, the work
//   of those namespaces is drained: pending work cancelled at once, running
//   work stopped with its priority class's grace period (pod_lifecycle.h),
//   each with a ContractRevoked event. The drained namespaces are the
//   contract's own that no other contract in force covers
//   (governance/contract_revocation.h): nothing else is touched. Each removal
//   and each drained workload is an audit record of system:allotd (verbs
//   delete and cancel). A crash between the two steps leaves the contract
//   unrevoked with its bindings gone: the revocation can be made again.
// Contracts are created, changed and deleted by apply and delete
// (policy_service.h, contract_state.h). Thread-safe.
#pragma once

#include <string>
#include <vector>

#include "base/clock.h"
#include "base/result.h"
#include "model/contract.h"
#include "model/principal.h"
#include "model/views/policy_view.h"
#include "service/control/cluster_state.h"
#include "service/control/loop_signal.h"
#include "service/control/policy_service.h"

namespace allot {

class ContractService {
 public:
  ContractService(ClusterState& cluster, PolicyService& policies, LoopSignal& signal,
                  const Clock& clock)
      : cluster_(cluster), policies_(policies), signal_(signal), clock_(clock) {}

  // The contract as it is after the transition, with its status.
  Result<PolicyObjectView> transition(const Principal& caller, const std::string& name,
                                      ContractAction action, const std::string& reason);

 private:
  // The namespaces a revocation of `name` would drain, once the phase allows
  // it (the transition's error otherwise).
  Result<std::vector<std::string>> revocation_scope(const std::string& name, const std::string& by,
                                                    const std::string& reason);
  // Makes the transition; a revocation drains `drained` in the same change.
  Result<PolicyObjectView> make_transition(const Principal& caller, const std::string& name,
                                           ContractAction action, const std::string& reason,
                                           const std::vector<std::string>& drained);

  ClusterState& cluster_;
  PolicyService& policies_;
  LoopSignal& signal_;
  const Clock& clock_;
};

}  // namespace allot
