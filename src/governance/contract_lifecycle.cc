#include "governance/contract_lifecycle.h"

#include <algorithm>
#include <string>
#include <vector>

namespace allot {
namespace {

// The phase `action` leads to from `from`, or the error when it may not.
Result<ContractPhase> contract_next_phase(ContractPhase from, ContractAction action) {
  using P = ContractPhase;
  std::vector<P> allowed;
  P to = P::kDraft;
  switch (action) {
    case ContractAction::kCreate:
      return failed_precondition("a contract is created by applying it", "action");
    case ContractAction::kApprove: allowed = {P::kDraft}, to = P::kApproved; break;
    case ContractAction::kActivate: allowed = {P::kApproved}, to = P::kActive; break;
    case ContractAction::kReview: allowed = {P::kActive}, to = P::kUnderReview; break;
    case ContractAction::kRenew: allowed = {P::kUnderReview}, to = P::kActive; break;
    case ContractAction::kRevoke:
      allowed = {P::kDraft, P::kApproved, P::kActive, P::kUnderReview}, to = P::kRevoked;
      break;
  }
  if (std::find(allowed.begin(), allowed.end(), from) != allowed.end()) return to;
  std::string want;
  for (P p : allowed) want += (want.empty() ? "" : " or ") + std::string(contract_phase_name(p));
  return failed_precondition("the contract is " + std::string(contract_phase_name(from)) + "; " +
                                 std::string(contract_action_name(action)) + " needs " + want,
                             "status.phase");
}

}  // namespace

ContractStatus new_contract_status(const std::string& by, Timestamp now) {
  ContractStatus status;
  status.requested_by = by;
  status.history.push_back(
      {ContractAction::kCreate, ContractPhase::kDraft, ContractPhase::kDraft, by, now, "created"});
  return status;
}

Result<ContractStatus> contract_transition(const ContractStatus& status, ContractAction action,
                                           const std::string& by, const std::string& reason,
                                           Timestamp now) {
  if (by.empty()) return invalid_argument("a transition is made by a named person", "by");
  if (reason.find_first_not_of(" \t\r\n") == std::string::npos) {
    return invalid_argument("a transition needs a reason", "reason");
  }
  ALLOT_ASSIGN_OR_RETURN(const ContractPhase to, contract_next_phase(status.phase, action));
  if (action == ContractAction::kApprove && by == status.requested_by) {
    return Status(ErrorCode::kPermissionDenied,
                  "'" + by +
                      "' requested this contract and cannot approve it: approval needs "
                      "an approver who is not the requester",
                  "by");
  }
  ContractStatus next = status;
  next.phase = to;
  if (action == ContractAction::kApprove) next.approved_by = by;
  if (action == ContractAction::kActivate || action == ContractAction::kRenew) {
    next.reviewed_at = now;
  }
  next.history.push_back({action, status.phase, to, by, now, reason});
  return next;
}

std::optional<ReviewSchedule> review_schedule(const ContractSpec& spec,
                                              const ContractStatus& status) {
  if (!status.reviewed_at) return std::nullopt;
  Timestamp due = *status.reviewed_at + spec.review_interval;
  if (status.phase == ContractPhase::kUnderReview) {
    for (const ContractTransition& step : status.history) {
      if (step.action == ContractAction::kReview && step.at >= *status.reviewed_at) {
        due = std::min(due, step.at);
      }
    }
  }
  return ReviewSchedule{due, due + spec.review_grace_period};
}

std::optional<ContractAction> parse_contract_action(std::string_view text) {
  for (ContractAction action :
       {ContractAction::kApprove, ContractAction::kActivate, ContractAction::kReview,
        ContractAction::kRenew, ContractAction::kRevoke}) {
    if (contract_action_name(action) == text) return action;
  }
  return std::nullopt;
}

}  // namespace allot
