// Quota usage per team, flavor and resource: what `allot top` and a team's
// status show.
//
// Contract: one row per team, flavor and resource where the team has a
// nominal quota or usage. usage counts admitted and running workloads;
// borrowed = usage above nominal; lent = the part of the team's idle nominal
// quota that other teams of its cohort tree use: the cohort's total borrowed
// amount shared among its teams in proportion to their idle quota (Kueue
// does not attribute lending to a team; this is allot's definition).
// REQUIRES: state.policy.compiled() is not null. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "service/server_state.h"

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
};

std::vector<QuotaUsageRow> quota_usage(const ServerState& state);
nlohmann::json quota_usage_json(const QuotaUsageRow& row);

}  // namespace allot
