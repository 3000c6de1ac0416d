#include "service/control/contract_state.h"

#include <algorithm>
#include <utility>

#include "api/contract_status_json.h"
#include "governance/contract_lifecycle.h"
#include "governance/contract_reviews.h"

namespace allot {
namespace {

const Contract* find_contract(const Policy& policy, const std::string& name) {
  for (const Contract& contract : policy.contracts) {
    if (contract.meta.name == name) return &contract;
  }
  return nullptr;
}

bool directory_knows(const DirectoryView* directory, const std::string& name) {
  if (directory == nullptr || name.empty()) return false;
  const std::optional<DirectoryStanding> user = directory->standing(name);
  return (user && user->active) || directory->has_group(name);
}

Status check_contract_owners(const Contract& contract, const DirectoryView* directory) {
  const ContractSpec& spec = contract.spec;
  const std::pair<const char*, const std::string*> owners[] = {
      {"owners.business", &spec.owners.business},
      {"owners.operations", &spec.owners.operations},
      {"owners.cost", &spec.owners.cost},
      {"schedulingPolicyOwner", &spec.scheduling_policy_owner},
      {"exceptionOwner", &spec.exception_owner},
  };
  for (const auto& [field, name] : owners) {
    if (directory_knows(directory, *name)) continue;
    return not_found("'" + *name + "' is no active User or Group of the directory",
                     "Contract/" + contract.meta.name + ".spec." + field);
  }
  return {};
}

ContractPhase stored_phase_of(const ContractStatuses& statuses, const std::string& name) {
  const auto it = statuses.find(name);
  return it == statuses.end() ? ContractPhase::kDraft : it->second.phase;
}

}  // namespace

Status check_contract_changes(const ContractStatuses& statuses, const Policy& current,
                              const Policy& next, const std::vector<PolicyChange>& changes,
                              const DirectoryView* directory) {
  for (const PolicyChange& change : changes) {
    if (change.kind != "Contract" || change.action == "unchanged") continue;
    const ContractPhase phase = stored_phase_of(statuses, change.name);
    const Contract* before = find_contract(current, change.name);
    const Contract* after = find_contract(next, change.name);
    const bool in_force = phase == ContractPhase::kActive || phase == ContractPhase::kUnderReview;
    const bool reviewable = in_force && before != nullptr && after != nullptr &&
                            reviewable_spec_change(before->spec, after->spec).has_value();
    if (change.action == "configured" && phase != ContractPhase::kDraft && !reviewable) {
      return failed_precondition(
          "contract '" + change.name + "' is " + std::string(contract_phase_name(phase)) +
              ": its spec changes only while Draft (while in force: its "
              "owners, roles, classification, reviewWebhook and monitoringSignals); "
              "revoke "
              "it and apply a new contract",
          "Contract/" + change.name + ".spec");
    }
    if (const Contract* contract = find_contract(next, change.name)) {
      ALLOT_RETURN_IF_ERROR(check_contract_owners(*contract, directory));
    }
  }
  return {};
}

ContractStatusChanges new_contract_statuses(const std::vector<PolicyChange>& changes,
                                            const std::string& by, Timestamp now) {
  ContractStatusChanges out;
  for (const PolicyChange& change : changes) {
    if (change.kind == "Contract" && change.action == "created") {
      out.put[change.name] = new_contract_status(by, now);
    }
  }
  return out;
}

Status check_contract_delete(const ContractStatuses& statuses, const std::string& name) {
  const ContractPhase phase = stored_phase_of(statuses, name);
  if (phase == ContractPhase::kDraft || phase == ContractPhase::kRevoked) return {};
  return failed_precondition("contract '" + name + "' is " +
                             std::string(contract_phase_name(phase)) +
                             ": revoke it before deleting it");
}

void put_contract_statuses(const ContractStatusChanges& changes, WriteBatch& batch) {
  for (const auto& [name, status] : changes.put) {
    batch.put_objects.push_back(
        {std::string(kContractStatusKind), name, contract_status_json(status).dump()});
  }
  for (const std::string& name : changes.erase) {
    batch.delete_objects.push_back({std::string(kContractStatusKind), name});
  }
}

void install_contract_statuses(const ContractStatusChanges& changes, ContractStatuses& statuses) {
  for (const auto& [name, status] : changes.put) statuses[name] = status;
  for (const std::string& name : changes.erase) statuses.erase(name);
}

ContractStandingView contract_standing(const Policy& policy, const ContractStatuses& statuses,
                                       const std::string& name) {
  ContractStandingView view;
  if (const auto it = statuses.find(name); it != statuses.end()) view.status = it->second;
  if (const Contract* contract = find_contract(policy, name)) {
    if (const std::optional<ReviewSchedule> review = review_schedule(contract->spec, view.status)) {
      view.review_due = review->due;
      view.grace_ends = review->grace_ends;
    }
  }
  return view;
}

bool is_contract_owner(const Principal& caller, const ContractSpec& spec) {
  for (const std::string* owner :
       {&spec.owners.business, &spec.owners.operations, &spec.owners.cost,
        &spec.scheduling_policy_owner, &spec.exception_owner}) {
    if (owner->empty()) continue;
    if (*owner == caller.subject ||
        std::find(caller.groups.begin(), caller.groups.end(), *owner) != caller.groups.end()) {
      return true;
    }
  }
  return false;
}

}  // namespace allot
