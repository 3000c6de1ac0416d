// Weighted dominant resource share (DRS) over the cohort tree.
//
// For a team or cohort n and each governed flavor-resource: borrowed(n) =
// max(0, U(n) - S(n)), divided by S(parent(n)) (what the parent could lend
// it). n's share is the largest such ratio (x1000), divided by its weight; a
// weight of 0 ranks last while borrowing and first while not.
//
// Contract: pure functions of a QuotaTree; they never modify it.
#pragma once

#include <cstdint>

#include "scheduler/quota_tree.h"

namespace allot {

// A root has no parent to borrow from: its share is 0.
double weighted_share(const QuotaTree& tree, int32_t quota_node);

// The share of `quota_node` if `team` (in its subtree) used `delta` more of
// `flavor`, computed without changing `tree` (its caches stay valid).
double weighted_share_after(const QuotaTree& tree, int32_t quota_node, TeamIndex team,
                            FlavorIndex flavor, const ResourceVector& delta);

// The same two shares split by flavor, for a search during which only
// `flavor`'s usage moves: `outside` is borrowed_ratio_outside() of the same
// node (the largest unweighted ratio over the other flavors), and only
// `flavor`'s resources are looked at. Equal, bit for bit, to the functions
// above while the other flavors' usage is as it was when `outside` was taken.
double borrowed_ratio_outside(const QuotaTree& tree, int32_t quota_node, FlavorIndex flavor);
double weighted_share_in(const QuotaTree& tree, int32_t quota_node, FlavorIndex flavor,
                         double outside);
double weighted_share_after_in(const QuotaTree& tree, int32_t quota_node, TeamIndex team,
                               FlavorIndex flavor, const ResourceVector& delta, double outside);

}  // namespace allot
