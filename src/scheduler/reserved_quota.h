// ReservedQuota: the quota a reserved gang will need at its start, kept from
// work that would still hold it then (DESIGN.md section 3, large gangs).
//
// A gang whose quota is held by work with a declared maxRuntime gets a start:
// the earliest moment its team's quota fits once that work has ended
// (earliest_quota_fit). Until its start, work may be admitted in the flavor
// only if it ends by the start, or if the gang's quota at the start stays
// enough with it (work of a team that shares no quota with the gang, say),
// or if it is another team's work within that team's nominal quota: a
// team's guarantee is never held back for someone else's gang.
// Without this, small jobs that free and retake the quota one by one would
// keep a gang waiting for as long as they keep coming.
//
// Contract: a value (it copies the quota tree as it will be at the start).
// The caller asks allows() before every admission in the flavor and reports
// each one with admitted(). A gang that would not fit at its start even so
// (running work overran its bound) holds nothing. Not thread-safe.
#pragma once

#include <span>
#include <vector>

#include "base/quantity.h"
#include "base/time.h"
#include "scheduler/quota_tree.h"
#include "scheduler/snapshot.h"

namespace allot {

// A team's usage in one flavor that ends at `at` (declared maxRuntime).
struct QuotaRelease {
  Timestamp at;
  TeamIndex team;
  ResourceVector amount;
};

// The earliest time, now or one of the releases (REQUIRES: sorted by at), by
// which `request` fits `team`'s quota in `flavor`; infinite_future() if never.
Timestamp earliest_quota_fit(QuotaTree quota, std::span<const QuotaRelease> releases,
                             TeamIndex team, FlavorIndex flavor, const ResourceVector& request,
                             Timestamp now);

class ReservedQuota {
 public:
  // `quota` is the usage now; releases that end by `starts_at` are taken out.
  ReservedQuota(QuotaTree quota, std::span<const QuotaRelease> releases, WorkloadId gang,
                TeamIndex team, FlavorIndex flavor, const ResourceVector& request,
                Timestamp starts_at);

  [[nodiscard]] WorkloadId gang() const { return gang_; }
  [[nodiscard]] Timestamp starts_at() const { return starts_at_; }
  // Whether `amount` for `team`, ending by `finish_by`, leaves the gang its
  // quota at the start (`borrows`: it takes `team` above its nominal now).
  [[nodiscard]] bool allows(WorkloadId workload, TeamIndex team, FlavorIndex flavor,
                            const ResourceVector& amount, Timestamp finish_by, bool borrows);
  void admitted(WorkloadId workload, TeamIndex team, FlavorIndex flavor,
                const ResourceVector& amount, Timestamp finish_by);

 private:
  [[nodiscard]] bool concerns(WorkloadId workload, FlavorIndex flavor, Timestamp finish_by) const {
    return holds_ && workload != gang_ && flavor == flavor_ && finish_by > starts_at_;
  }

  QuotaTree at_start_;
  WorkloadId gang_;
  TeamIndex team_;
  FlavorIndex flavor_;
  ResourceVector request_;
  Timestamp starts_at_;
  bool holds_ = false;
};

}  // namespace allot
