// Usage over time: each team's GPUs held, borrowed and lent per time bucket,
// from the metering ledger's allocation intervals (the Teams view's chart).
//
// Contract: pure. The buckets are [from + i*bucket, from + (i+1)*bucket) for
// i < count. A bucket's `gpus` and `borrowed` are the mean GPUs the team held
// in it (GPU-time / bucket length); an open interval counts up to the end of
// the last bucket. `lent` applies `allot top`'s definition
// (service/control/quota_usage.h) to the bucket's means, per flavor and
// cohort tree: the tree's borrowed GPUs shared among its teams in proportion
// to their idle nominal quota (nominal - mean usage, never below 0), never
// more than that idle quota in all. A team of no tree (`root` empty) lends
// nothing. Teams absent from `teams` are not reported and take no part in
// lending.
// REQUIRES: bucket > 0, count >= 0.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "accounting/ledger.h"
#include "base/time.h"
#include "model/ids.h"

namespace allot {

// A team as the series needs it: its cohort tree and nominal GPUs per flavor.
struct SeriesTeam {
  TeamId team;
  std::string root;                             // the root cohort; "" when none
  std::map<std::string, int64_t> nominal_gpus;  // by flavor
};

struct UsageBucket {
  double gpus = 0;  // mean GPUs held (own + borrowed)
  double borrowed = 0;
  double lent = 0;

  friend bool operator==(const UsageBucket&, const UsageBucket&) = default;
};

// Each team of `teams`, `count` buckets each.
std::map<TeamId, std::vector<UsageBucket>> usage_series(
    const std::vector<AllocationInterval>& allocations, const std::vector<SeriesTeam>& teams,
    Timestamp from, Duration bucket, int32_t count);

}  // namespace allot
