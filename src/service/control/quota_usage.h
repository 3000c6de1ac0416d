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

#include "model/views/quota_usage_view.h"
#include "service/control/server_state.h"

namespace allot {

std::vector<QuotaUsageRow> quota_usage(const ServerState& state);

}  // namespace allot
