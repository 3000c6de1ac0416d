#include "cli/verbs/exit_codes.h"

#include "base/check.h"

namespace allot::cli {

int exit_code_for(const Status& status) {
  ALLOT_CHECK(!status.ok());
  switch (status.code()) {
    case ErrorCode::kInternal:
    case ErrorCode::kUnavailable:
    case ErrorCode::kResourceExhausted: return kExitFailure;
    default: return kExitUsage;
  }
}

}  // namespace allot::cli
