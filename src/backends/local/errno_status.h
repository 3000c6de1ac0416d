// errno_status(): a Status for a failed system call, "what: strerror(errno)".
//
// Contract: the code is kPermissionDenied for EACCES/EPERM, kNotFound for
// ENOENT, kUnavailable for EAGAIN/ENOMEM/EMFILE/ENFILE and kInternal otherwise.
// Header-only, stateless.
#pragma once

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

#include "base/status.h"

namespace allot::local {

inline Status errno_status(std::string_view what, int err) {
  ErrorCode code = ErrorCode::kInternal;
  if (err == EACCES || err == EPERM) code = ErrorCode::kPermissionDenied;
  if (err == ENOENT) code = ErrorCode::kNotFound;
  if (err == EAGAIN || err == ENOMEM || err == EMFILE || err == ENFILE) {
    code = ErrorCode::kUnavailable;
  }
  return {code, std::string(what) + ": " + std::strerror(err)};
}

}  // namespace allot::local
