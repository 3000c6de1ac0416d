// JSON of a PolicyException's status (issue 15, item 6; docs/governance.md),
// as stored (kind PolicyExceptionStatus) and as served in a PolicyException's
// `status`:
//   {"phase": "Approved", "requestedBy": "ana", "decidedBy": "bob",
//    "history": [{"action": "approve", "from": "Requested", "to": "Approved",
//    "by": "bob", "at": T, "reason": "..."}]}
//
// Contract: pure; decode_exception_status() reverses exception_status_json()
// and fails (kInvalidArgument, naming the field) on anything else.
#pragma once

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "model/policy_exception.h"

namespace allot {

nlohmann::json exception_status_json(const ExceptionStatus& status);
Result<ExceptionStatus> decode_exception_status(const nlohmann::json& json);

}  // namespace allot
