// Policy exceptions applied (issue 15, item 6): the policy the scheduler and
// the admission gate see at `now` is the applied one with every exception
// whose expiry is still ahead, and without those past it.
//
// Contract: pure (the caller passes its clock's time). An exception applies
// while now < spec.expires; one expired stops applying by itself at the next
// evaluation. What each one relaxes, for its team only:
// - quota: its amounts are added to the team's nominal quota of the flavor
//   (a flavor the team has no quota of is appended last, with the amounts
//   as nominal);
// - priorityClass: added to the team's allowedPriorityClasses (an empty list
//   allows every class already and stays empty);
// - workloadKind: added to the approved kinds of every contract covering the
//   team's namespace;
// - dataClassification: every contract covering the team's namespace whose
//   classification is at most the exception's level may run on its cluster
//   although the cluster's maxDataClassification is lower.
// Exceptions naming what the policy lacks (a team since deleted) relax
// nothing. The result keeps `exceptions` as they are. Exceptions named in
// `withheld` (not Approved: governance/exception_lifecycle.h) never apply.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/time.h"
#include "model/policy.h"

namespace allot {

[[nodiscard]] bool exception_active(const PolicyException& exception, Timestamp now);

// `policy` with its exceptions active at `now` applied.
[[nodiscard]] Policy policy_with_exceptions(const Policy& policy, Timestamp now,
                                            const std::set<std::string>& withheld = {});

// The names of the exceptions active at `now`, in the policy's order: when
// they change, the effective policy changes.
[[nodiscard]] std::vector<std::string> active_exception_names(
    const Policy& policy, Timestamp now, const std::set<std::string>& withheld = {});

// Whether `exception` is active at `now` and expires within `window`.
[[nodiscard]] bool exception_expiring(const PolicyException& exception, Timestamp now,
                                      Duration window);

}  // namespace allot
