#include "service/control/contract_gate.h"

#include <string>

namespace allot {

std::optional<ContractVerdict> contract_refusal_of(const LiveWorkload& live,
                                                   const ServerState& state, Timestamp now) {
  const Policy& policy = state.policy.effective();
  if (policy.organizations.empty()) return std::nullopt;
  const Workload& workload = live.doc.workload;
  return contract_refusal(policy, state.contracts, workload.meta.namespace_name, workload.spec.kind,
                          now);
}

Status check_submit_contracts(const ServerState& state, const Workload& workload, Timestamp now) {
  const Policy& policy = state.policy.effective();
  if (policy.organizations.empty()) return {};
  const std::optional<ContractVerdict> verdict = contract_refusal(
      policy, state.contracts, workload.meta.namespace_name, workload.spec.kind, now);
  if (!verdict || !verdict->permanent) return {};
  return failed_precondition(std::string(contract_refusal_name(verdict->reason)) + ": " +
                                 verdict->message + "; this workload can never run here",
                             "spec.kind");
}

}  // namespace allot
