#include "scheduler/reserved_quota.h"

#include <algorithm>
#include <utility>

#include "scheduler/released_quota.h"

namespace allot {

Timestamp earliest_quota_fit(QuotaTree& quota, std::span<const QuotaRelease> releases,
                             TeamIndex team, FlavorIndex flavor, const ResourceVector& request,
                             Timestamp now) {
  if (quota.fits(team, flavor, request)) return now;
  Timestamp fit = Timestamp::infinite_future();
  size_t taken = 0;
  for (; taken < releases.size(); ++taken) {
    const QuotaRelease& release = releases[taken];
    if (release.at == Timestamp::infinite_future()) break;
    quota.remove_usage(release.team, flavor, release.amount);
    if (quota.fits(team, flavor, request)) {
      fit = std::max(release.at, now);
      ++taken;
      break;
    }
  }
  // Put back in reverse order: each step undoes its removal exactly.
  while (taken-- > 0) quota.add_usage(releases[taken].team, flavor, releases[taken].amount);
  return fit;
}

ReservedQuota::ReservedQuota(const QuotaTree& quota, std::span<const QuotaRelease> releases,
                             WorkloadId gang, TeamIndex team, FlavorIndex flavor,
                             const ResourceVector& request, Timestamp starts_at, Duration runtime,
                             Duration cycle)
    : ReservedQuota(released_quota_at(quota, releases, flavor, starts_at), gang, team, flavor,
                    request, starts_at, runtime, cycle) {}

ReservedQuota::ReservedQuota(QuotaTree at_start, WorkloadId gang, TeamIndex team,
                             FlavorIndex flavor, const ResourceVector& request, Timestamp starts_at,
                             Duration runtime, Duration cycle)
    : at_start_(std::move(at_start)),
      gang_(gang),
      team_(team),
      flavor_(flavor),
      request_(request),
      starts_at_(starts_at),
      ends_at_(runtime == Duration::max() ? Timestamp::infinite_future()
                                          : starts_at + runtime + cycle) {
  holds_ = at_start_.fits(team_, flavor_, request_);
}

bool ReservedQuota::concerns(WorkloadId workload, FlavorIndex flavor, Timestamp finish_by) const {
  return holds_ && workload != gang_ && flavor == flavor_ && finish_by > starts_at_ &&
         std::find(linked_.begin(), linked_.end(), workload) == linked_.end();
}

bool ReservedQuota::fits_with(TeamIndex team, const ResourceVector& amount) {
  at_start_.add_usage(team, flavor_, amount);
  const bool fits = at_start_.fits(team_, flavor_, request_);
  at_start_.remove_usage(team, flavor_, amount);
  return fits;
}

bool ReservedQuota::allows(WorkloadId workload, TeamIndex team, FlavorIndex flavor,
                           const ResourceVector& amount, Timestamp finish_by, bool borrows) {
  if (!concerns(workload, flavor, finish_by) || (team != team_ && !borrows)) return true;
  return fits_with(team, amount);
}

void ReservedQuota::admitted(WorkloadId workload, TeamIndex team, FlavorIndex flavor,
                             const ResourceVector& amount, Timestamp finish_by) {
  if (concerns(workload, flavor, finish_by)) at_start_.add_usage(team, flavor, amount);
}

bool ReservedQuota::conflicts_with(ReservedQuota& other) {
  if (other.flavor_ != flavor_ || !holds_ || !other.holds_) return false;
  return other.crowds_out(*this) || crowds_out(other);
}

bool ReservedQuota::crowds_out(ReservedQuota& other) {
  return running_at(other.starts_at_) && !other.fits_with(team_, request_);
}

void ReservedQuota::link(ReservedQuota& other) {
  if (other.flavor_ != flavor_) return;
  if (other.running_at(starts_at_) && holds_) {
    at_start_.add_usage(other.team_, flavor_, other.request_);
    linked_.push_back(other.gang_);
    holds_ = at_start_.fits(team_, flavor_, request_);
  }
  if (running_at(other.starts_at_) && other.holds_) {
    other.at_start_.add_usage(team_, flavor_, request_);
    other.linked_.push_back(gang_);
    other.holds_ = other.at_start_.fits(other.team_, flavor_, other.request_);
  }
}

Timestamp ReservedQuota::start_beside(std::span<const ReservedQuota> others) {
  const auto counted = [&](const ReservedQuota& other) {
    return other.gang_ != gang_ && other.flavor_ == flavor_ && other.holds_ &&
           other.running_at(starts_at_);
  };
  Timestamp first_end = Timestamp::infinite_future();
  for (const ReservedQuota& other : others) {
    if (!counted(other)) continue;
    at_start_.add_usage(other.team_, flavor_, other.request_);
    first_end = std::min(first_end, other.ends_at_);
  }
  const bool fits = at_start_.fits(team_, flavor_, request_);
  // Taken out in reverse order: each step undoes its addition exactly.
  for (auto other = others.rbegin(); other != others.rend(); ++other) {
    if (counted(*other)) at_start_.remove_usage(other->team_, flavor_, other->request_);
  }
  return fits ? starts_at_ : first_end;
}

}  // namespace allot
