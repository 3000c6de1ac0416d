// as_input_error(): a Status caused by what a user sent, as the API reports it.
//
// Contract: validators deeper down phrase a missing reference as kNotFound and
// an inconsistent object as kFailedPrecondition; when the object at fault is
// the one the user just sent, both are bad input (kInvalidArgument, HTTP 400).
// Other codes, the message and the details are kept. Pure.
#pragma once

#include <string>

#include "base/status.h"

namespace allot {

inline Status as_input_error(const Status& status, const std::string& message_prefix = {}) {
  const ErrorCode code = status.code();
  const bool bad_input = code == ErrorCode::kNotFound || code == ErrorCode::kFailedPrecondition;
  return {bad_input ? ErrorCode::kInvalidArgument : code, message_prefix + status.message(),
          status.details()};
}

}  // namespace allot
