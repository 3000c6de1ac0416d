// Quota usage per team, flavor and resource: what `allot top` and a team's
// status show.
//
// Contract: one row per team, flavor and resource where the team has a
// nominal quota or usage. usage counts admitted and running workloads;
// borrowed = usage above nominal; lent = the part of the team's idle nominal
// quota that other teams of its cohort tree use: the cohort's total borrowed
// amount shared among its teams in proportion to their idle quota (Kueue
// does not attribute lending to a team; this is allot's definition).
// With kEveryTeam, a team that has no GPU row (no GPU quota and no GPU usage)
// still gets one, all zeros but its pending and admitted counts, for the
// first flavor of the cluster ("" when there is none): `allot top` and the
// dashboard's Teams list every team, the one just created included.
// REQUIRES: state.policy.compiled() is not null. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "model/views/quota_usage_view.h"
#include "service/control/server_state.h"

namespace allot {

enum class QuotaRows : uint8_t { kWithQuotaOrUsage, kEveryTeam };

std::vector<QuotaUsageRow> quota_usage(const ServerState& state,
                                       QuotaRows which = QuotaRows::kWithQuotaOrUsage);

}  // namespace allot
