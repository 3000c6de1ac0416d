// What allotd keeps of its Contracts beside their specs (issue 15, item 3):
// each contract's status (phase, history), stored as a ContractStatus object
// of the contract's name, and the checks and changes an apply or a delete of
// Contract documents makes to it.
//
// Contract: pure functions of values, under the callers' locks.
// - A contract created by an apply starts Draft, requested by the caller.
// - A Contract's spec changes only while it is Draft (kFailedPrecondition
//   otherwise: revoke it and apply a new one), except, while it is Active or
//   UnderReview, its owners, roles, classification and reviewWebhook
//   (governance/contract_reviews.h: such a change makes an Active contract's
//   review due); it may be deleted only while Draft or Revoked.
// - Its owners (business, operations, cost, schedulingPolicyOwner,
//   exceptionOwner) are directory Users (active) or Groups (kNotFound naming
//   the field otherwise; no directory: none exists).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "base/time.h"
#include "model/contract.h"
#include "model/policy.h"
#include "model/principal.h"
#include "model/views/policy_view.h"
#include "service/identity/directory_view.h"
#include "store/store.h"

namespace allot {

inline constexpr std::string_view kContractStatusKind = "ContractStatus";

// Whether `caller` is one of the contract's owners (business, operations,
// cost, schedulingPolicyOwner, exceptionOwner), by name or by group.
bool is_contract_owner(const Principal& caller, const ContractSpec& spec);

using ContractStatuses = std::map<std::string, ContractStatus>;  // by contract name

// What an apply or a delete changes of the statuses: stored with its batch,
// then installed.
struct ContractStatusChanges {
  ContractStatuses put;
  std::vector<std::string> erase;
};

// Refuses the apply of `changes` (to `next`) when a changed Contract is not
// Draft or names an owner the directory does not have.
Status check_contract_changes(const ContractStatuses& statuses, const Policy& current,
                              const Policy& next, const std::vector<PolicyChange>& changes,
                              const DirectoryView* directory);

// The Draft statuses of the contracts `changes` creates, requested by `by`.
ContractStatusChanges new_contract_statuses(const std::vector<PolicyChange>& changes,
                                            const std::string& by, Timestamp now);

// Refuses the delete of a contract that is neither Draft nor Revoked.
Status check_contract_delete(const ContractStatuses& statuses, const std::string& name);

void put_contract_statuses(const ContractStatusChanges& changes, WriteBatch& batch);
void install_contract_statuses(const ContractStatusChanges& changes, ContractStatuses& statuses);

// A contract's status with its review schedule (Draft when none is stored).
ContractStandingView contract_standing(const Policy& policy, const ContractStatuses& statuses,
                                       const std::string& name);

}  // namespace allot
