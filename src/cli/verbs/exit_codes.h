// Exit codes of the allot CLI, shared by every verb.
//
// Contract: 0 success; 2 bad input or usage (unknown flag, missing file,
// malformed manifest, invalid policy: something the user can fix); 1 a
// failure at run time (an internal error, a limit hit, an unwritable output).
#pragma once

#include "base/status.h"

namespace allot::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// The exit code for an error Status. REQUIRES: !status.ok().
int exit_code_for(const Status& status);

}  // namespace allot::cli
