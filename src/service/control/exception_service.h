// ExceptionService: the decisions on requested PolicyExceptions (issue 15,
// item 6): POST /api/v1/policyexceptions/{name}/{approve|reject}.
//
// Contract: only the exception's named approver (by name or group) or a
// caller RBAC lets `approve` / `reject` policyexceptions at cluster scope
// (cluster-admin) decides it (kPermissionDenied otherwise); its owner and
// whoever requested it never (governance/exception_lifecycle.h, which also
// refuses a decision from a phase but Requested and one without a reason).
// The decision is a policy change of its own (PolicyService::serialized():
// never interleaved with an apply), stored (kind PolicyExceptionStatus) and
// installed as one ordered change (cluster_state.h), with an audit record (verb approve or
// reject, resource policyexceptions); an approval puts the exception in
// force at once (until it expires), a rejection keeps it out for good. The
// admission loop is woken. Thread-safe.
#pragma once

#include <string>

#include "base/clock.h"
#include "base/result.h"
#include "model/policy_exception.h"
#include "model/principal.h"
#include "model/views/policy_view.h"
#include "service/control/cluster_state.h"
#include "service/control/loop_signal.h"
#include "service/control/policy_service.h"

namespace allot {

class ExceptionService {
 public:
  ExceptionService(ClusterState& cluster, PolicyService& policies, LoopSignal& signal,
                   const Clock& clock)
      : cluster_(cluster), policies_(policies), signal_(signal), clock_(clock) {}

  // The exception as it is after the decision, with its status.
  Result<PolicyObjectView> decide(const Principal& caller, const std::string& name,
                                  ExceptionAction action, const std::string& reason);

 private:
  Result<PolicyObjectView> decide_now(const Principal& caller, const std::string& name,
                                      ExceptionAction action, const std::string& reason);

  ClusterState& cluster_;
  PolicyService& policies_;
  LoopSignal& signal_;
  const Clock& clock_;
};

}  // namespace allot
