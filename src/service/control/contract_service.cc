#include "service/control/contract_service.h"

#include <utility>

#include "api/contract_status_json.h"
#include "governance/contract_lifecycle.h"
#include "service/control/contract_state.h"
#include "service/control/policy_objects.h"

namespace allot {

Result<PolicyObjectView> ContractService::transition(const Principal& caller,
                                                     const std::string& name, ContractAction action,
                                                     const std::string& reason) {
  ALLOT_RETURN_IF_ERROR(cluster_.access().authorize(
      caller, std::string(contract_action_name(action)), "contracts", "", name));
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
    ALLOT_ASSIGN_OR_RETURN(ContractStatus next, contract_transition(current, action, caller.subject,
                                                                    reason, clock_.now()));
    WriteBatch batch;
    batch.put_objects.push_back(
        {std::string(kContractStatusKind), name, contract_status_json(next).dump()});
    state.contracts[name] = std::move(next);
    view = object_view(key, document->second);
    view.contract = contract_standing(state.policy.policy(), state.contracts, name);
    lock.queue(std::move(batch));
  }
  signal_.wake();
  return view;
}

}  // namespace allot
