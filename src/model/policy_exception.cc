#include "model/policy_exception.h"

namespace allot {

std::string_view exception_target_name(ExceptionTarget target) {
  switch (target) {
    case ExceptionTarget::kQuota: return "quota";
    case ExceptionTarget::kPriorityClass: return "priorityClass";
    case ExceptionTarget::kWorkloadKind: return "workloadKind";
    case ExceptionTarget::kDataClassification: return "dataClassification";
  }
  return "unknown";
}

std::string_view exception_phase_name(ExceptionPhase phase) {
  switch (phase) {
    case ExceptionPhase::kRequested: return "Requested";
    case ExceptionPhase::kApproved: return "Approved";
    case ExceptionPhase::kRejected: return "Rejected";
    case ExceptionPhase::kExpired: return "Expired";
  }
  return "unknown";
}

std::string_view exception_action_name(ExceptionAction action) {
  switch (action) {
    case ExceptionAction::kRequest: return "request";
    case ExceptionAction::kApprove: return "approve";
    case ExceptionAction::kReject: return "reject";
  }
  return "unknown";
}

}  // namespace allot
