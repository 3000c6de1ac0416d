// The arithmetic of `allot-bench api --audit both` (bench/audit_pairs.h):
// each pair's throughput cost and CPU overhead, their spread, and the pooled
// figures over every slice.
#include "bench/audit_pairs.h"

#include <gtest/gtest.h>

namespace allot::bench {
namespace {

AuditSlice slice(double submits, double wall_s, double cpu_s, double p50_ms) {
  AuditSlice s;
  s.submits = submits;
  s.wall_s = wall_s;
  s.allotd_cpu_s = cpu_s;
  s.p50_ms = p50_ms;
  return s;
}

AuditPair pair(AuditSlice on, AuditSlice off) {
  AuditPair p;
  p.on = on;
  p.off = off;
  return p;
}

TEST(AuditPairs, APairsCostIsOneLessOnOverOffAndItsOverheadOnOverOffLessOne) {
  // 1,000 submits: on in 0.5 s with 0.25 s of CPU, off in 0.4 s with 0.2 s.
  const AuditPair p = pair(slice(1000, 0.5, 0.25, 1.2), slice(1000, 0.4, 0.2, 1.0));
  EXPECT_DOUBLE_EQ(throughput_cost(p), 1 - 2000.0 / 2500.0);  // 20%
  EXPECT_DOUBLE_EQ(cpu_overhead(p), 250.0 / 200.0 - 1);       // 25%
}

TEST(AuditPairs, AnEmptyOffSideCostsNothingRatherThanDividingByZero) {
  const AuditPair p = pair(slice(1000, 0.5, 0.25, 1.2), AuditSlice{});
  EXPECT_EQ(throughput_cost(p), 0);
  EXPECT_EQ(cpu_overhead(p), 0);
}

TEST(AuditPairs, SpreadIsTheLowestTheMedianAndTheHighest) {
  const Spread odd = spread_of({0.3, -0.1, 0.2});
  EXPECT_DOUBLE_EQ(odd.min, -0.1);
  EXPECT_DOUBLE_EQ(odd.median, 0.2);
  EXPECT_DOUBLE_EQ(odd.max, 0.3);
  const Spread even = spread_of({0.4, 0.1, 0.2, 0.3});
  EXPECT_DOUBLE_EQ(even.median, 0.25);
  const Spread none = spread_of({});
  EXPECT_EQ(none.median, 0);
}

TEST(AuditPairs, TheSummaryTakesMediansPerPairAndPoolsTheSlices) {
  // Three pairs; the middle one's machine was twice as slow on both sides.
  const std::vector<AuditPair> pairs = {
      pair(slice(1000, 0.55, 0.22, 1.1), slice(1000, 0.5, 0.2, 1.0)),  // cost 1/11, +10%
      pair(slice(1000, 1.2, 0.48, 2.4), slice(1000, 1.0, 0.4, 2.0)),   // cost 1/6, +20%
      pair(slice(1000, 0.5, 0.2, 1.0), slice(1000, 0.5, 0.2, 1.0)),    // 0, 0
  };
  const AuditPairSummary s = summarize_audit_pairs(pairs);
  EXPECT_EQ(s.pairs, 3);
  EXPECT_DOUBLE_EQ(s.throughput_cost.min, 0);
  EXPECT_DOUBLE_EQ(s.throughput_cost.median, 1 - 1000 / 0.55 / 2000);
  EXPECT_DOUBLE_EQ(s.throughput_cost.max, 1 - 1000 / 1.2 / 1000);
  EXPECT_NEAR(s.cpu_overhead.median, 0.10, 1e-12);
  EXPECT_NEAR(s.cpu_overhead.max, 0.20, 1e-12);
  // Pooled: 3,000 submits a side; on took 2.25 s and 0.9 s of CPU, off 2.0 s and 0.8 s.
  EXPECT_DOUBLE_EQ(s.pooled_on_per_s, 3000 / 2.25);
  EXPECT_DOUBLE_EQ(s.pooled_off_per_s, 3000 / 2.0);
  EXPECT_DOUBLE_EQ(s.pooled_throughput_cost, 1 - 2.0 / 2.25);
  EXPECT_NEAR(s.pooled_on_cpu_us, 300, 1e-9);
  EXPECT_NEAR(s.pooled_off_cpu_us, 800.0 / 3, 1e-9);
  EXPECT_NEAR(s.pooled_cpu_overhead, 0.9 / 0.8 - 1, 1e-12);
  EXPECT_DOUBLE_EQ(s.median_on_p50_ms, 1.1);
  EXPECT_DOUBLE_EQ(s.median_off_p50_ms, 1.0);
}

TEST(AuditPairs, NoPairsGiveAnEmptySummary) {
  const AuditPairSummary s = summarize_audit_pairs({});
  EXPECT_EQ(s.pairs, 0);
  EXPECT_EQ(s.pooled_throughput_cost, 0);
  EXPECT_EQ(s.throughput_cost.median, 0);
}

}  // namespace
}  // namespace allot::bench
