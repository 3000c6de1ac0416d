// JSON of a Contract's status (issue 15, item 3; docs/governance.md), as
// stored (kind ContractStatus) and as served in a Contract's `status`:
//   {"phase": "Active", "requestedBy": "ana", "approvedBy": "bob",
//    "reviewedAt": T, "history": [{"action": "approve", "from": "Draft",
//    "to": "Approved", "by": "bob", "at": T, "reason": "..."}]}
// served with "reviewDue" and "reviewGraceEnds" once active.
//
// Contract: pure; decode_contract_status() reverses contract_status_json()
// and fails (kInvalidArgument, naming the field) on anything else.
#pragma once

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "model/contract.h"
#include "model/views/policy_view.h"

namespace allot {

nlohmann::json contract_status_json(const ContractStatus& status);
nlohmann::json contract_standing_json(const ContractStandingView& standing);
Result<ContractStatus> decode_contract_status(const nlohmann::json& json);

}  // namespace allot
