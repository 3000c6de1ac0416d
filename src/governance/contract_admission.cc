#include "governance/contract_admission.h"

#include <algorithm>
#include <string>
#include <vector>

#include "governance/contract_lifecycle.h"

namespace allot {
namespace {

std::string_view gate_kind_name(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kTrainingJob: return "TrainingJob";
    case WorkloadKind::kInferenceEndpoint: return "InferenceEndpoint";
    case WorkloadKind::kSpace: return "Space";
    case WorkloadKind::kJob: return "Job";
  }
  return "Unknown";
}

// The refusal of one contract that covers the namespace, or nullopt when it
// lets the workload in.
std::optional<ContractVerdict> refusal_of_contract(const Policy& policy, const Contract& contract,
                                                   const ContractStatus& status, WorkloadKind kind,
                                                   Timestamp now) {
  const std::string who = "contract " + contract.meta.name;
  if (status.phase != ContractPhase::kActive && status.phase != ContractPhase::kUnderReview) {
    return ContractVerdict{
        ContractRefusal::kContractMissing,
        who + " is " + std::string(contract_phase_name(status.phase)) + ", not Active", false,
        std::nullopt};
  }
  const std::optional<ReviewSchedule> review = review_schedule(contract.spec, status);
  if (review && now >= review->grace_ends) {
    return ContractVerdict{ContractRefusal::kReviewOverdue,
                           who + " is overdue for review and past its grace period: renew it",
                           false, review->due};
  }
  const std::vector<WorkloadKind>& kinds = contract.spec.approved_workload_kinds;
  if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end()) {
    std::string approved;
    for (WorkloadKind k : kinds)
      approved += (approved.empty() ? "" : ", ") + std::string(gate_kind_name(k));
    return ContractVerdict{
        ContractRefusal::kKindNotApproved,
        who + " approves " + approved + ", not " + std::string(gate_kind_name(kind)), true,
        std::nullopt};
  }
  const Organization& org = *policy.organization();
  const Cluster* cluster = policy.find_cluster(contract.spec.cluster.name);
  const std::string held = cluster == nullptr || cluster->max_data_classification.empty()
                               ? org.data_classifications.front()
                               : cluster->max_data_classification;
  const size_t wanted = org.rank(contract.spec.data_classification).value_or(SIZE_MAX);
  if (wanted > org.rank(held).value_or(0)) {
    return ContractVerdict{ContractRefusal::kClassificationAboveCluster,
                           who + " is for " + contract.spec.data_classification +
                               " data; cluster " + contract.spec.cluster.name + " holds at most " +
                               held,
                           true, std::nullopt};
  }
  return std::nullopt;
}

}  // namespace

std::string_view contract_refusal_name(ContractRefusal reason) {
  switch (reason) {
    case ContractRefusal::kContractMissing: return "ContractMissing";
    case ContractRefusal::kReviewOverdue: return "ReviewOverdue";
    case ContractRefusal::kKindNotApproved: return "KindNotApproved";
    case ContractRefusal::kClassificationAboveCluster: return "ClassificationAboveCluster";
  }
  return "Unknown";
}

std::optional<ContractVerdict> contract_refusal(
    const Policy& policy, const std::map<std::string, ContractStatus>& statuses,
    std::string_view ns, WorkloadKind kind, Timestamp now) {
  const Organization* org = policy.organization();
  if (org == nullptr) return std::nullopt;
  std::optional<ContractVerdict> furthest;
  for (const Contract& contract : policy.contracts) {
    const std::vector<std::string>& namespaces = contract.spec.namespaces;
    if (std::find(namespaces.begin(), namespaces.end(), ns) == namespaces.end()) continue;
    const auto it = statuses.find(contract.meta.name);
    const ContractStatus draft;
    std::optional<ContractVerdict> verdict =
        refusal_of_contract(policy, contract, it == statuses.end() ? draft : it->second, kind, now);
    if (!verdict) return std::nullopt;
    if (!furthest || verdict->reason > furthest->reason) furthest = std::move(verdict);
  }
  if (furthest) return furthest;
  return ContractVerdict{ContractRefusal::kContractMissing,
                         "no contract covers namespace " + std::string(ns) + ": Organization " +
                             org->meta.name + " requires an Active one",
                         false, std::nullopt};
}

}  // namespace allot
