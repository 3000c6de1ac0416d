// Plans compared field by field, for the property tests that run a shortcut
// (or kept state) against the plain path over random worlds.
#pragma once

#include <cstdint>
#include <string>

#include <gtest/gtest.h>

#include "scheduler/plan.h"

namespace allot::testing {

// Every field of two plans, in order, explanations and their estimated
// starts included; a failure names the seed and step.
inline void expect_identical_plans(const Plan& a, const Plan& b, uint64_t seed, int step) {
  const auto where = [&] {
    return "seed " + std::to_string(seed) + " step " + std::to_string(step);
  };
  ASSERT_EQ(a.evictions.size(), b.evictions.size()) << where();
  for (size_t i = 0; i < a.evictions.size(); ++i) {
    EXPECT_EQ(a.evictions[i].workload, b.evictions[i].workload) << where();
    EXPECT_EQ(a.evictions[i].node, b.evictions[i].node) << where();
  }
  ASSERT_EQ(a.preemptions.size(), b.preemptions.size()) << where();
  for (size_t i = 0; i < a.preemptions.size(); ++i) {
    const Preemption& x = a.preemptions[i];
    const Preemption& y = b.preemptions[i];
    EXPECT_TRUE(x.victim == y.victim && x.beneficiary == y.beneficiary && x.reason == y.reason &&
                x.grace_period == y.grace_period)
        << where() << ": preemption " << i;
  }
  ASSERT_EQ(a.admissions.size(), b.admissions.size()) << where();
  for (size_t i = 0; i < a.admissions.size(); ++i) {
    const Admission& x = a.admissions[i];
    const Admission& y = b.admissions[i];
    EXPECT_TRUE(x.workload == y.workload && x.flavor == y.flavor && x.assignment == y.assignment &&
                x.usage == y.usage && x.borrowing == y.borrowing && x.borrowed == y.borrowed &&
                x.partial == y.partial && x.backfill == y.backfill)
        << where() << ": admission " << i;
  }
  ASSERT_EQ(a.reservations.size(), b.reservations.size()) << where();
  for (size_t i = 0; i < a.reservations.size(); ++i) {
    const Reservation& x = a.reservations[i];
    const Reservation& y = b.reservations[i];
    EXPECT_TRUE(x.workload == y.workload && x.flavor == y.flavor && x.nodes == y.nodes &&
                x.starts_at == y.starts_at)
        << where() << ": reservation " << i;
  }
  ASSERT_EQ(a.blocked_tails.size(), b.blocked_tails.size()) << where();
  for (size_t i = 0; i < a.blocked_tails.size(); ++i) {
    const BlockedTail& x = a.blocked_tails[i];
    const BlockedTail& y = b.blocked_tails[i];
    EXPECT_TRUE(x.team == y.team && x.head_position == y.head_position &&
                x.explanation_index == y.explanation_index)
        << where() << ": blocked tail " << i;
  }
  ASSERT_EQ(a.explanations.size(), b.explanations.size()) << where();
  for (size_t i = 0; i < a.explanations.size(); ++i) {
    const PendingExplanation& x = a.explanations[i];
    const PendingExplanation& y = b.explanations[i];
    EXPECT_TRUE(x.workload == y.workload && x.reason == y.reason && x.preemption == y.preemption &&
                x.flavor == y.flavor && x.quota_node == y.quota_node && x.fr == y.fr &&
                x.requested == y.requested && x.available == y.available &&
                x.holder_usage == y.holder_usage && x.holder_team == y.holder_team &&
                x.queue_position == y.queue_position && x.estimated_start == y.estimated_start)
        << where() << ": explanation " << i << " (workload " << x.workload.value() << ")";
  }
}

}  // namespace allot::testing
