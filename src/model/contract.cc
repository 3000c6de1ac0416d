#include "model/contract.h"

namespace allot {

std::string_view contract_phase_name(ContractPhase phase) {
  switch (phase) {
    case ContractPhase::kDraft: return "Draft";
    case ContractPhase::kApproved: return "Approved";
    case ContractPhase::kActive: return "Active";
    case ContractPhase::kUnderReview: return "UnderReview";
    case ContractPhase::kRevoked: return "Revoked";
  }
  return "Unknown";
}

std::string_view contract_action_name(ContractAction action) {
  switch (action) {
    case ContractAction::kCreate: return "create";
    case ContractAction::kApprove: return "approve";
    case ContractAction::kActivate: return "activate";
    case ContractAction::kReview: return "review";
    case ContractAction::kRenew: return "renew";
    case ContractAction::kRevoke: return "revoke";
  }
  return "unknown";
}

}  // namespace allot
