// Capacity scaling: the "what if we had a third of the GPUs" of a trace study
// (`allot simulate --trace ... --capacity-factor Y`). The policy keeps its
// shape; the cluster and every quota are scaled by Y.
//
// Contract, for a factor 0 < Y <= 1000 (else kInvalidArgument):
// - every NodePool of n >= 1 nodes gets max(1, round(n * Y)) nodes (a pool
//   never disappears; round half away from zero); a pool of 0 stays at 0.
// - every quota amount (nominal, borrowingLimit, lendingLimit, of teams and
//   cohorts) is scaled the same way, in whole nodes: when the amount is a
//   whole number of the flavor's nodes (every pool of that flavor has the same
//   amount u > 0 of the resource per node, and u divides the amount), it
//   becomes max(1, round(amount / u * Y)) * u, so a team that owned its pool
//   still owns exactly that pool; any other amount becomes round(amount * Y).
//   0 stays 0; an unset limit stays unset.
// Y = 1 returns the policy unchanged. Pure function.
#pragma once

#include "base/result.h"
#include "model/policy.h"

namespace allot {

Result<Policy> scale_capacity(const Policy& policy, double factor);

}  // namespace allot
