// Policy limits: the sizes beyond which a policy is refused when it is
// validated (validate_policy() checks them), so that no user input can reach
// an arithmetic overflow or an invariant check, and an apply stays quick.
//
// Contract: check_policy_limits() answers the first limit a policy breaks,
// naming the document and field, with the limit and the value in words.
// - counts: nodes in all (the NodePools' `count`s together), teams, cohorts,
//   nodes per rack, racks per block;
// - totals, per flavor and resource: what its nodes hold together, and the
//   quotas of every team and cohort (nominal, borrowingLimit, lendingLimit
//   each) together, at most kMaxTotalQuantity, far below the point where
//   the scheduler's sums of them could overflow.
// Pure.
#pragma once

#include <cstdint>

#include "base/status.h"
#include "model/policy.h"

namespace allot {

inline constexpr int64_t kMaxPolicyNodes = 65'536;
inline constexpr int64_t kMaxPolicyTeams = 4'096;
inline constexpr int64_t kMaxPolicyCohorts = 4'096;
inline constexpr int32_t kMaxNodesPerRack = 1'024;
inline constexpr int32_t kMaxRacksPerBlock = 4'096;
inline constexpr int64_t kMaxTotalQuantity = int64_t{1} << 60;

Status check_policy_limits(const Policy& policy);

}  // namespace allot
