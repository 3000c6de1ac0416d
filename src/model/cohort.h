// Cohort: a group of teams (and nested cohorts) that lend to each other.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/object_meta.h"
#include "model/quota.h"

namespace allot {

struct Cohort {
  ObjectMeta meta;
  std::string parent;  // empty for a root cohort
  double fair_share_weight = 1.0;
  std::vector<FlavorQuota> quota;  // the cohort's own pool, usually empty

  friend bool operator==(const Cohort&, const Cohort&) = default;
};

}  // namespace allot
