// ReleasedQuota: one flavor's quota usage as it will be once the work that
// ends by a given time has released it, kept between the gangs of a cycle
// (what a ReservedQuota starts from: reserved_quota.h).
//
// Every reserved gang needs the flavor slice of the live quota tree with each
// release at or before its start taken out, in thousands of removals per
// gang at scale. This keeps the last such slice and how many releases it took
// out, and moves it release by release to the next gang's start: removals
// forward, the same additions back (each undoes the other exactly, and the
// usage of every quota node is a function of the teams' usage alone, so the
// order of the steps does not matter). It is built afresh whenever the live
// tree's usage of the flavor (compared node by node) or the releases (their
// version, which the caller bumps on every change) differ from what it was
// built from.
//
// Contract: at() equals released_quota_at() of the same arguments, usage
// for usage (pinned by ReleasedQuota.KeptSliceEqualsTheSliceBuiltEachTime).
// A value per flavor and cycle; not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "base/time.h"
#include "scheduler/quota_tree.h"
#include "scheduler/reserved_quota.h"

namespace allot {

// The plain path: the flavor slice of `quota` with every release at or
// before `at` taken out (REQUIRES: releases sorted by at).
QuotaTree released_quota_at(const QuotaTree& quota, std::span<const QuotaRelease> releases,
                            FlavorIndex flavor, Timestamp at);

class ReleasedQuota {
 public:
  explicit ReleasedQuota(FlavorIndex flavor) : flavor_(flavor) {}

  // `version` names the state of `releases`: equal versions, equal releases.
  [[nodiscard]] const QuotaTree& at(const QuotaTree& quota, std::span<const QuotaRelease> releases,
                                    uint64_t version, Timestamp at);
  // How many calls moved the kept slice instead of building it (for tests).
  [[nodiscard]] int64_t reused() const { return reused_; }

 private:
  [[nodiscard]] bool built_from(const QuotaTree& quota) const;

  FlavorIndex flavor_;
  std::optional<QuotaTree> base_;   // the live tree's slice it was built from
  std::optional<QuotaTree> moved_;  // base_ with releases [0, taken_) taken out
  size_t taken_ = 0;
  uint64_t version_ = 0;
  int64_t reused_ = 0;
};

}  // namespace allot
