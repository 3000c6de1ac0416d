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
// Several reserved gangs that share quota are linked (link()): each one that
// will be running at another's start counts in that other's quota then; a
// gang whose window would leave another without its quota starts after that
// one ends instead (conflicts_with()), and one that does not fit beside all
// the gangs running at its start together starts at the first of their ends
// (start_beside()).
//
// Contract: a value (it copies the flavor's part of the quota tree as it will
// be at the start: QuotaTree::flavor_slice).
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
// Releases are taken out of `quota` one by one and put back before it returns
// (the tree is left exactly as it was; no copy is made).
Timestamp earliest_quota_fit(QuotaTree& quota, std::span<const QuotaRelease> releases,
                             TeamIndex team, FlavorIndex flavor, const ResourceVector& request,
                             Timestamp now);

class ReservedQuota {
 public:
  // `quota` is the usage now; releases that end by `starts_at` are taken out.
  // `runtime`: the gang's declared maxRuntime (Duration::max(): none);
  // `cycle`: a gang starts at the first cycle at or after its start, so it
  // may run up to one cycle later than start + runtime.
  ReservedQuota(const QuotaTree& quota, std::span<const QuotaRelease> releases, WorkloadId gang,
                TeamIndex team, FlavorIndex flavor, const ResourceVector& request,
                Timestamp starts_at, Duration runtime, Duration cycle);
  // The same from the flavor's quota at the start, releases already taken
  // out (released_quota.h keeps it between gangs).
  ReservedQuota(QuotaTree at_start, WorkloadId gang, TeamIndex team, FlavorIndex flavor,
                const ResourceVector& request, Timestamp starts_at, Duration runtime,
                Duration cycle);

  [[nodiscard]] WorkloadId gang() const { return gang_; }
  [[nodiscard]] FlavorIndex flavor() const { return flavor_; }
  [[nodiscard]] Timestamp starts_at() const { return starts_at_; }
  [[nodiscard]] Timestamp ends_at() const { return ends_at_; }
  // The gang fits its quota at its start (with the work and gangs counted so far).
  [[nodiscard]] bool holds() const { return holds_; }
  [[nodiscard]] bool running_at(Timestamp t) const { return starts_at_ <= t && t < ends_at_; }
  // Whether the two gangs' windows would leave either without its quota at its start.
  // (Both are asked, then left as they were.)
  [[nodiscard]] bool conflicts_with(ReservedQuota& other);
  // One half of conflicts_with(): whether this gang, running at `other`'s
  // start, leaves `other` without its quota then (holds() not asked).
  [[nodiscard]] bool crowds_out(ReservedQuota& other);
  // Counts each gang in the other's quota at its start when it will be running then.
  void link(ReservedQuota& other);
  // Its start when the gang fits its quota then beside every gang of `others`
  // that holds and will be running then, all together; else the first end among
  // those (the earliest start worth trying next). conflicts_with() asks pair by
  // pair: two gangs may each fit beside it and not both. (Their usage is
  // added to this gang's quota at the start, then taken out: it is left as
  // it was, without a copy.)
  [[nodiscard]] Timestamp start_beside(std::span<const ReservedQuota> others);
  // Whether `amount` for `team`, ending by `finish_by`, leaves the gang its
  // quota at the start (`borrows`: it takes `team` above its nominal now).
  [[nodiscard]] bool allows(WorkloadId workload, TeamIndex team, FlavorIndex flavor,
                            const ResourceVector& amount, Timestamp finish_by, bool borrows);
  void admitted(WorkloadId workload, TeamIndex team, FlavorIndex flavor,
                const ResourceVector& amount, Timestamp finish_by);

 private:
  [[nodiscard]] bool concerns(WorkloadId workload, FlavorIndex flavor, Timestamp finish_by) const;
  // Whether the gang still fits at its start with `amount` more for `team`.
  [[nodiscard]] bool fits_with(TeamIndex team, const ResourceVector& amount);

  QuotaTree at_start_;
  WorkloadId gang_;
  TeamIndex team_;
  FlavorIndex flavor_;
  ResourceVector request_;
  Timestamp starts_at_;
  Timestamp ends_at_;
  bool holds_ = false;
  std::vector<WorkloadId> linked_;  // gangs already counted at the start
};

}  // namespace allot
