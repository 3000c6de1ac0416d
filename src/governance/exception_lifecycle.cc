#include "governance/exception_lifecycle.h"

namespace allot {

Result<ExceptionStatus> exception_applied(const std::optional<ExceptionStatus>& before,
                                          const std::string& by, bool by_approver, Timestamp now) {
  if (by.empty()) return invalid_argument("an exception is applied by a named person", "by");
  if (before && before->phase == ExceptionPhase::kRejected) {
    return failed_precondition(
        "the exception was rejected: a rejection is final; delete it and apply a new one",
        "status.phase");
  }
  ExceptionStatus next = before.value_or(ExceptionStatus{});
  const ExceptionPhase from = before ? before->phase : ExceptionPhase::kRequested;
  next.requested_by = by;
  next.decided_by.clear();
  next.phase = ExceptionPhase::kRequested;
  next.history.push_back({ExceptionAction::kRequest, from, ExceptionPhase::kRequested, by, now,
                          before ? "spec changed" : "requested"});
  if (!by_approver) return next;
  next.phase = ExceptionPhase::kApproved;
  next.decided_by = by;
  next.history.push_back({ExceptionAction::kApprove, ExceptionPhase::kRequested,
                          ExceptionPhase::kApproved, by, now, "applied by its approver"});
  return next;
}

Result<ExceptionStatus> exception_decision(const ExceptionStatus& status,
                                           const PolicyExceptionSpec& spec, ExceptionAction action,
                                           const std::string& by, const std::string& reason,
                                           Timestamp now) {
  if (action == ExceptionAction::kRequest) {
    return invalid_argument("an exception is requested by applying it", "action");
  }
  if (by.empty()) return invalid_argument("a decision is made by a named person", "by");
  if (reason.find_first_not_of(" \t\r\n") == std::string::npos) {
    return invalid_argument("a decision needs a reason", "reason");
  }
  if (by == spec.owner || by == status.requested_by) {
    return Status(ErrorCode::kPermissionDenied,
                  "'" + by +
                      "' owns or requested this exception and cannot decide it: only its "
                      "approver can",
                  "by");
  }
  if (exception_request_expired(status, spec, now)) {
    return failed_precondition(
        "the exception is Expired: its expiry passed while it was Requested, and an expired "
        "request is never in force; apply it again with a later expiry",
        "spec.expires");
  }
  if (status.phase != ExceptionPhase::kRequested) {
    return failed_precondition("the exception is " +
                                   std::string(exception_phase_name(status.phase)) + "; " +
                                   std::string(exception_action_name(action)) + " needs Requested",
                               "status.phase");
  }
  ExceptionStatus next = status;
  next.phase =
      action == ExceptionAction::kApprove ? ExceptionPhase::kApproved : ExceptionPhase::kRejected;
  next.decided_by = by;
  next.history.push_back({action, status.phase, next.phase, by, now, reason});
  return next;
}

bool exception_request_expired(const ExceptionStatus& status, const PolicyExceptionSpec& spec,
                               Timestamp now) {
  return status.phase == ExceptionPhase::kExpired ||
         (status.phase == ExceptionPhase::kRequested && !(now < spec.expires));
}

bool exception_expired(const ExceptionStatus& status, const PolicyExceptionSpec& spec,
                       Timestamp now) {
  return exception_request_expired(status, spec, now) ||
         (status.phase == ExceptionPhase::kApproved && !(now < spec.expires));
}

ExceptionStatus exception_status_at(ExceptionStatus status, const PolicyExceptionSpec& spec,
                                    Timestamp now) {
  if (exception_expired(status, spec, now)) status.phase = ExceptionPhase::kExpired;
  return status;
}

bool exception_approved(const std::optional<ExceptionStatus>& status) {
  return !status || status->phase == ExceptionPhase::kApproved;
}

std::optional<ExceptionAction> parse_exception_action(std::string_view text) {
  for (ExceptionAction action : {ExceptionAction::kApprove, ExceptionAction::kReject}) {
    if (exception_action_name(action) == text) return action;
  }
  return std::nullopt;
}

}  // namespace allot
