// Status: the outcome of an operation that can fail for expected reasons.
//
// Contract: a Status is either ok() or carries an ErrorCode, a human message and
// an optional location ("details": which document, which field). Expected
// failures travel as values; nothing here throws. Value type, thread-compatible.
#pragma once

#include <string>
#include <string_view>
#include <utility>

namespace allot {

enum class ErrorCode {
  kOk = 0,
  kInvalidArgument,     // malformed input: manifest, request, CLI argument
  kNotFound,            // a named object does not exist
  kAlreadyExists,       // create of an existing object
  kFailedPrecondition,  // the system is not in a state that allows the operation
  kOutOfRange,          // arithmetic or a value outside its permitted range
  kPermissionDenied,    // authenticated but not allowed
  kUnauthenticated,     // no valid identity
  kResourceExhausted,   // a limit was reached
  kUnavailable,         // a dependency is down; retrying may help
  kInternal,            // a bug or an unexpected failure of the platform
};

// Stable lower-case name of a code, used in JSON errors and CLI output.
std::string_view error_code_name(ErrorCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(ErrorCode code, std::string message, std::string details = {})
      : code_(code), message_(std::move(message)), details_(std::move(details)) {}

  static Status ok_status() { return {}; }

  [[nodiscard]] bool ok() const { return code_ == ErrorCode::kOk; }
  [[nodiscard]] ErrorCode code() const { return code_; }
  [[nodiscard]] const std::string& message() const { return message_; }
  // Where the error is: "document 3 (Team/research): spec.quota[0].resources.gpu".
  [[nodiscard]] const std::string& details() const { return details_; }

  // Returns a copy whose location is prefixed by `where` ("spec" + ".quota").
  [[nodiscard]] Status with_context(std::string_view where) const;
  // "invalid_argument: message (at details)".
  [[nodiscard]] std::string to_string() const;

  friend bool operator==(const Status&, const Status&) = default;

 private:
  ErrorCode code_ = ErrorCode::kOk;
  std::string message_;
  std::string details_;
};

inline Status invalid_argument(std::string message, std::string details = {}) {
  return {ErrorCode::kInvalidArgument, std::move(message), std::move(details)};
}
inline Status not_found(std::string message, std::string details = {}) {
  return {ErrorCode::kNotFound, std::move(message), std::move(details)};
}
inline Status failed_precondition(std::string message, std::string details = {}) {
  return {ErrorCode::kFailedPrecondition, std::move(message), std::move(details)};
}
inline Status out_of_range(std::string message, std::string details = {}) {
  return {ErrorCode::kOutOfRange, std::move(message), std::move(details)};
}

}  // namespace allot
