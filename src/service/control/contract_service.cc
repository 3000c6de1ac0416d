#include "service/control/contract_service.h"

#include <algorithm>
#include <utility>

#include "api/contract_status_json.h"
#include "governance/contract_lifecycle.h"
#include "governance/contract_revocation.h"
#include "service/control/contract_state.h"
#include "service/control/control_audit.h"
#include "service/control/endpoint_control.h"
#include "service/control/pod_lifecycle.h"
#include "service/control/policy_objects.h"
#include "service/control/workload_transitions.h"

namespace allot {
namespace {

std::string revocation_message(const std::string& name, const std::string& by,
                               const std::string& reason) {
  return "contract " + name + " revoked by " + by + ": " + reason;
}

// Cancels every unfinished workload of `drained` (namespaces) in `state`,
// each noted and audited; endpoints take their replicas with them.
void drain_revoked_namespaces(ClusterState& cluster, ServerState& state,
                              const std::vector<std::string>& drained, const std::string& why,
                              Timestamp now, WriteBatch& batch, Actions& actions) {
  std::vector<WorkloadId> ids;
  for (const auto& [id, live] : state.workloads.active()) {
    const std::string& ns = live->doc.workload.meta.namespace_name;
    if (!is_final(live->phase()) &&
        std::find(drained.begin(), drained.end(), ns) != drained.end()) {
      ids.push_back(id);
    }
  }
  for (const WorkloadId id : ids) {
    LiveWorkload* live = state.workloads.find(id);
    if (live == nullptr || is_final(live->phase())) continue;  // an endpoint's replica, gone
    if (!cancel_workload(*live, state, now, batch, actions).ok()) continue;
    note(*live, "Warning", "ContractRevoked", why, now, batch);
    cluster.audit_control(system_audit_event("cancel", "workloads",
                                             live->doc.workload.meta.namespace_name,
                                             live->doc.workload.meta.name, why, now));
    if (is_endpoint_parent(live->doc.workload)) {
      reconcile_endpoint(
          state, *live, [&cluster] { return cluster.allocate_id(); }, now, batch, actions);
    }
  }
}

}  // namespace

Result<PolicyObjectView> ContractService::transition(const Principal& caller,
                                                     const std::string& name, ContractAction action,
                                                     const std::string& reason) {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(
      caller, std::string(contract_action_name(action)), "contracts", "", name));
  if (action != ContractAction::kRevoke) return make_transition(caller, name, action, reason, {});
  ALLOT_ASSIGN_OR_RETURN(const std::vector<std::string> drained,
                         revocation_scope(name, caller.subject, reason));
  ALLOT_RETURN_IF_ERROR(
      policies_.remove_role_bindings(drained, revocation_message(name, caller.subject, reason))
          .status());
  return make_transition(caller, name, action, reason, drained);
}

Result<std::vector<std::string>> ContractService::revocation_scope(const std::string& name,
                                                                   const std::string& by,
                                                                   const std::string& reason) {
  ReaderLock lock(cluster_.mutex());
  const ServerState& state = cluster_.view();
  if (!state.policy.documents().contains(DocumentKey{"Contract", name})) {
    return not_found("contract '" + name + "' does not exist");
  }
  const auto stored = state.contracts.find(name);
  const ContractStatus current =
      stored == state.contracts.end() ? ContractStatus{} : stored->second;
  ALLOT_RETURN_IF_ERROR(
      contract_transition(current, ContractAction::kRevoke, by, reason, clock_.now()).status());
  return revocation_namespaces(state.policy.policy(), state.contracts, name);
}

Result<PolicyObjectView> ContractService::make_transition(const Principal& caller,
                                                          const std::string& name,
                                                          ContractAction action,
                                                          const std::string& reason,
                                                          const std::vector<std::string>& drained) {
  PolicyObjectView view;
  {
    ClusterWriter writer(cluster_);
    ChangeLock lock(cluster_, writer);
    ServerState& state = cluster_.state();
    const DocumentKey key{"Contract", name};
    const auto document = state.policy.documents().find(key);
    if (document == state.policy.documents().end()) {
      return not_found("contract '" + name + "' does not exist");
    }
    const auto stored = state.contracts.find(name);
    const ContractStatus current =
        stored == state.contracts.end() ? ContractStatus{} : stored->second;
    const Timestamp now = clock_.now();
    ALLOT_ASSIGN_OR_RETURN(ContractStatus next,
                           contract_transition(current, action, caller.subject, reason, now));
    WriteBatch batch;
    Actions actions;
    batch.put_objects.push_back(
        {std::string(kContractStatusKind), name, contract_status_json(next).dump()});
    state.contracts[name] = std::move(next);
    if (action == ContractAction::kRevoke) {
      drain_revoked_namespaces(cluster_, state, drained,
                               revocation_message(name, caller.subject, reason), now, batch,
                               actions);
    }
    view = object_view(key, document->second);
    view.contract = contract_standing(state.policy.policy(), state.contracts, name);
    lock.queue(std::move(batch), std::move(actions));
  }
  signal_.wake();
  return view;
}

}  // namespace allot
