#include "scheduler/reserved_quota.h"

namespace allot {

Timestamp earliest_quota_fit(QuotaTree quota, std::span<const QuotaRelease> releases,
                             TeamIndex team, FlavorIndex flavor, const ResourceVector& request,
                             Timestamp now) {
  if (quota.fits(team, flavor, request)) return now;
  for (const QuotaRelease& release : releases) {
    if (release.at == Timestamp::infinite_future()) break;
    quota.remove_usage(release.team, flavor, release.amount);
    if (quota.fits(team, flavor, request)) return std::max(release.at, now);
  }
  return Timestamp::infinite_future();
}

ReservedQuota::ReservedQuota(QuotaTree quota, std::span<const QuotaRelease> releases,
                             WorkloadId gang, TeamIndex team, FlavorIndex flavor,
                             const ResourceVector& request, Timestamp starts_at)
    : at_start_(std::move(quota)),
      gang_(gang),
      team_(team),
      flavor_(flavor),
      request_(request),
      starts_at_(starts_at) {
  for (const QuotaRelease& release : releases) {
    if (release.at > starts_at) break;
    at_start_.remove_usage(release.team, flavor, release.amount);
  }
  holds_ = at_start_.fits(team_, flavor_, request_);
}

bool ReservedQuota::allows(WorkloadId workload, TeamIndex team, FlavorIndex flavor,
                           const ResourceVector& amount, Timestamp finish_by, bool borrows) {
  if (!concerns(workload, flavor, finish_by) || (team != team_ && !borrows)) return true;
  at_start_.add_usage(team, flavor, amount);
  const bool fits = at_start_.fits(team_, flavor_, request_);
  at_start_.remove_usage(team, flavor, amount);
  return fits;
}

void ReservedQuota::admitted(WorkloadId workload, TeamIndex team, FlavorIndex flavor,
                             const ResourceVector& amount, Timestamp finish_by) {
  if (concerns(workload, flavor, finish_by)) at_start_.add_usage(team, flavor, amount);
}

}  // namespace allot
