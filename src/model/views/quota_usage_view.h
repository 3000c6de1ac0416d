// Quota usage per team, flavor and resource: what `allot top` and a team's
// status show (service/control/quota_usage.h computes it).
//
// Contract: plain values. usage counts admitted and running workloads;
// borrowed = usage above nominal; lent = the part of the team's idle nominal
// quota that other teams of its cohort tree use.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/quantity.h"

namespace allot {

struct QuotaUsageRow {
  std::string team;
  std::string cohort;
  std::string flavor;
  Resource resource = Resource::kGpu;
  int64_t nominal = 0;
  int64_t usage = 0;
  int64_t borrowed = 0;
  int64_t lent = 0;
  int32_t pending = 0;   // of the team, all flavors
  int32_t admitted = 0;  // of the team, all flavors

  friend bool operator==(const QuotaUsageRow&, const QuotaUsageRow&) = default;
};

// Every team's rows (`allot top`).
struct TopView {
  std::vector<QuotaUsageRow> teams;
};

}  // namespace allot
