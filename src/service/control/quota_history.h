// Quota history: each team's GPU quota over time, for the Teams chart's
// quota lines as they were at each bucket (GET /api/v1/top/stats
// `quotaSeries`, docs/api.md), kept with the metering ledger.
//
// Contract: value types and pure functions.
// - A team's quota is its nominal GPUs, every flavor together, and its
//   ceiling: nominal + borrowing limit of every flavor it may use together,
//   none when any of them may borrow without limit (team_quota_gpus(), the
//   rule of top/stats' nominalGpus and ceilingGpus).
// - quota_changes() gives an interval for each team whose quota differs
//   from its open one (or has none) under the policy about to be in force,
//   from `now`, and a zero quota for a team the policy no longer has; like
//   the flavors' capacity, each opening interval closes the team's previous
//   one (apply_quota_changes()). The callers give the policy as installed
//   (under the exceptions' statuses): a policy change, an exception's
//   decision, a start, the backend's nodes; an exception ending by its
//   expiry alone is recorded at the next of those. Nothing is recorded before the first
//   policy or the first start with this code: quota_at() is none there.
// - Stored as objects of kind TeamQuota named "TEAM/START" (zero-padded ms,
//   so names order by time) in the objects table: no table of their own,
//   as the rate cards and capacities; finish_quota_load() orders what was
//   loaded and closes each team's intervals at its next one's start.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/time.h"
#include "scheduler/compiled_policy.h"
#include "store/store.h"

namespace allot {

inline constexpr std::string_view kTeamQuotaKind = "TeamQuota";

struct TeamQuotaGpus {
  int64_t nominal = 0;
  std::optional<int64_t> ceiling;  // none: no borrowing limit

  friend bool operator==(const TeamQuotaGpus&, const TeamQuotaGpus&) = default;
};

struct TeamQuotaInterval {
  std::string team;
  TeamQuotaGpus gpus;
  Timestamp start;
  std::optional<Timestamp> end;  // none while current

  friend bool operator==(const TeamQuotaInterval&, const TeamQuotaInterval&) = default;
};

TeamQuotaGpus team_quota_gpus(const CompiledPolicy& policy, const CompiledTeam& team);

// The intervals opening at `now` under `policy` (null: no policy, no team).
std::vector<TeamQuotaInterval> quota_changes(const std::vector<TeamQuotaInterval>& history,
                                             const CompiledPolicy* policy, Timestamp now);
// After the batch holding them is stored.
void apply_quota_changes(std::vector<TeamQuotaInterval> changes,
                         std::vector<TeamQuotaInterval>& history);

// The team's quota in force at `at` (the interval with start <= at < end);
// none when nothing was recorded for it then.
std::optional<TeamQuotaGpus> quota_at(const std::vector<TeamQuotaInterval>& history,
                                      const std::string& team, Timestamp at);

ObjectRecord team_quota_object(const TeamQuotaInterval& interval);
// Appends the stored object's interval; kInvalidArgument naming it when
// malformed. REQUIRES: object.kind == kTeamQuotaKind.
Status load_team_quota(const ObjectRecord& object, std::vector<TeamQuotaInterval>& history);
void finish_quota_load(std::vector<TeamQuotaInterval>& history);

}  // namespace allot
