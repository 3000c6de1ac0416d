// Exact division of an idle amount among teams (share-even, share-nominal).
//
// Contract: pure. split_exact() divides `total` (which may be negative, when
// more was allocated than the capacity recorded) among weights in proportion,
// in integers, so that the shares sum to `total` exactly: each gets the floor
// of its proportional share and the remainder goes one unit at a time to the
// largest fractional parts (ties: the earlier weight). REQUIRES: weights >= 0
// and their sum > 0 and below 2^62.
#pragma once

#include <vector>

#include "accounting/resource_time.h"

namespace allot {

std::vector<WideInt> split_exact(WideInt total, const std::vector<WideInt>& weights);

}  // namespace allot
