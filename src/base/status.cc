#include "base/status.h"

namespace allot {

std::string_view error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::kOk: return "ok";
    case ErrorCode::kInvalidArgument: return "invalid_argument";
    case ErrorCode::kNotFound: return "not_found";
    case ErrorCode::kAlreadyExists: return "already_exists";
    case ErrorCode::kFailedPrecondition: return "failed_precondition";
    case ErrorCode::kOutOfRange: return "out_of_range";
    case ErrorCode::kPermissionDenied: return "permission_denied";
    case ErrorCode::kUnauthenticated: return "unauthenticated";
    case ErrorCode::kResourceExhausted: return "resource_exhausted";
    case ErrorCode::kUnavailable: return "unavailable";
    case ErrorCode::kInternal: return "internal";
  }
  return "unknown";
}

Status Status::with_context(std::string_view where) const {
  if (ok() || where.empty()) {
    return *this;
  }
  std::string location(where);
  if (!details_.empty()) {
    location += details_.front() == '[' ? "" : ".";
    location += details_;
  }
  return {code_, message_, location};
}

std::string Status::to_string() const {
  std::string text(error_code_name(code_));
  if (!message_.empty()) {
    text += ": " + message_;
  }
  if (!details_.empty()) {
    text += " (at " + details_ + ")";
  }
  return text;
}

}  // namespace allot
