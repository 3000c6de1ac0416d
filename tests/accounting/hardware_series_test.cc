// hardware_series() and unhealthy_spans(): GPUs allocated, free, unhealthy
// and the measured utilisation per bucket, by hand.
#include "accounting/hardware_series.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

Timestamp hw_at(int64_t s) { return Timestamp::from_millis(s * 1000); }

AllocationInterval hw_allocation(const std::string& team, int64_t own, int64_t borrowed,
                                 int64_t start_s, std::optional<int64_t> end_s) {
  AllocationInterval a;
  a.team = TeamId(team);
  a.flavor = "gpu";
  a.own = ResourceVector(own, 0, 0);
  a.borrowed = ResourceVector(borrowed, 0, 0);
  a.start = hw_at(start_s);
  if (end_s) a.end = hw_at(*end_s);
  return a;
}

CapacityInterval hw_capacity(int64_t gpus, int64_t start_s, std::optional<int64_t> end_s) {
  CapacityInterval c{"gpu", ResourceVector(gpus, 0, 0), hw_at(start_s), std::nullopt};
  if (end_s) c.end = hw_at(*end_s);
  return c;
}

TEST(HardwareSeries, AllocatedFreeAndUnhealthyAreMeansOverEachBucket) {
  HardwareLedger ledger;
  // 16 healthy GPUs, then 8 from 90 s (a node of 8 went unhealthy).
  ledger.capacity = {hw_capacity(16, 0, 90), hw_capacity(8, 90, std::nullopt)};
  ledger.unhealthy = {{8, hw_at(90), std::nullopt}};
  // Two teams: 6 GPUs (2 borrowed) for the first minute, 4 from 30 s on.
  ledger.allocations = {hw_allocation("a", 4, 2, 0, 60),
                        hw_allocation("b", 4, 0, 30, std::nullopt)};
  const auto series = hardware_series(ledger, hw_at(0), Duration::seconds(60), 3);
  ASSERT_EQ(series.size(), 3u);
  // Minute 0: 6 + 4 x 1/2 = 8 allocated of 16: 8 free, none unhealthy.
  EXPECT_DOUBLE_EQ(series[0].allocated, 8.0);
  EXPECT_DOUBLE_EQ(series[0].free, 8.0);
  EXPECT_DOUBLE_EQ(series[0].unhealthy, 0.0);
  // Minute 1: 4 allocated; capacity 16 for 30 s and 8 for 30 s: 12, 8 free;
  // 8 unhealthy for half of it: 4.
  EXPECT_DOUBLE_EQ(series[1].allocated, 4.0);
  EXPECT_DOUBLE_EQ(series[1].free, 8.0);
  EXPECT_DOUBLE_EQ(series[1].unhealthy, 4.0);
  // Minute 2: the open spans last to the end.
  EXPECT_DOUBLE_EQ(series[2].allocated, 4.0);
  EXPECT_DOUBLE_EQ(series[2].free, 4.0);
  EXPECT_DOUBLE_EQ(series[2].unhealthy, 8.0);
  for (const HardwareBucket& b : series) {
    EXPECT_FALSE(b.utilization.has_value());
    EXPECT_DOUBLE_EQ(b.missing, 0.0);
  }
}

TEST(HardwareSeries, FreeNeverBelowZeroAndUtilisationIsTheMeasuredMean) {
  HardwareLedger ledger;
  ledger.capacity = {hw_capacity(2, 0, std::nullopt)};
  ledger.allocations = {hw_allocation("a", 2, 2, 0, std::nullopt)};  // more than healthy now
  // GPU n/0 at 100% for 60 s, GPU n/1 at 50% for 20 s of the first minute.
  ledger.utilization = {{WorkloadId(1), "n/0", hw_at(0), hw_at(60), 1'000'000},
                        {WorkloadId(1), "n/1", hw_at(0), hw_at(20), 500'000}};
  const auto series = hardware_series(ledger, hw_at(0), Duration::seconds(60), 2);
  EXPECT_DOUBLE_EQ(series[0].allocated, 4.0);
  EXPECT_DOUBLE_EQ(series[0].free, 0.0);
  // (60 x 1.0 + 20 x 0.5) / 80 GPU-seconds measured.
  ASSERT_TRUE(series[0].utilization.has_value());
  EXPECT_DOUBLE_EQ(*series[0].utilization, 70.0 / 80.0);
  EXPECT_FALSE(series[1].utilization.has_value());
}

TEST(HardwareSeries, MissingDataIsLeftOutOfTheMeansAndReportedPerBucket) {
  HardwareLedger ledger;
  ledger.capacity = {hw_capacity(10, 0, std::nullopt)};
  // allotd down over [30 s, 120 s): half of minute 0, all of minute 1.
  ledger.missing = {{hw_at(30), hw_at(120)}};
  ledger.allocations = {hw_allocation("a", 4, 0, 0, 30),
                        hw_allocation("a", 6, 0, 120, std::nullopt)};
  const auto series = hardware_series(ledger, hw_at(0), Duration::seconds(60), 3);
  EXPECT_DOUBLE_EQ(series[0].missing, 0.5);
  EXPECT_DOUBLE_EQ(series[0].allocated, 4.0);  // over the 30 s known, not the minute
  EXPECT_DOUBLE_EQ(series[0].free, 6.0);
  EXPECT_DOUBLE_EQ(series[1].missing, 1.0);
  HardwareBucket down;
  down.missing = 1.0;
  EXPECT_EQ(series[1], down);
  EXPECT_DOUBLE_EQ(series[2].missing, 0.0);
  EXPECT_DOUBLE_EQ(series[2].allocated, 6.0);
  EXPECT_DOUBLE_EQ(series[2].free, 4.0);
}

TEST(HardwareSeries, UnhealthySpansFromAHealthHistory) {
  // Unhealthy at 10 s, healthy at 20 s, unhealthy again at 30 s and still.
  const std::vector<HealthChangeAt> changes = {
      {hw_at(10), false}, {hw_at(20), true}, {hw_at(30), false}};
  EXPECT_EQ(unhealthy_spans(8, changes, false),
            (std::vector<GpuSpan>{{8, hw_at(10), hw_at(20)}, {8, hw_at(30), std::nullopt}}));
  // The oldest change kept is a recovery: unhealthy since before it.
  EXPECT_EQ(unhealthy_spans(4, {{hw_at(20), true}}, true),
            (std::vector<GpuSpan>{{4, Timestamp{}, hw_at(20)}}));
  // Unhealthy with no change kept: since before anything.
  EXPECT_EQ(unhealthy_spans(4, {}, false), (std::vector<GpuSpan>{{4, Timestamp{}, std::nullopt}}));
  EXPECT_TRUE(unhealthy_spans(4, {}, true).empty());
}

TEST(HardwareSeries, OverlappingMissingDataPeriodsAreCountedOnce) {
  HardwareLedger ledger;
  ledger.capacity = {hw_capacity(10, 0, std::nullopt)};
  // Two reports of the same outage, [10 s, 40 s) and [20 s, 40 s): 30 s of minute 0.
  ledger.missing = {{hw_at(10), hw_at(40)}, {hw_at(20), hw_at(40)}};
  ledger.allocations = {hw_allocation("a", 5, 0, 0, std::nullopt)};
  const auto series = hardware_series(ledger, hw_at(0), Duration::seconds(60), 1);
  EXPECT_DOUBLE_EQ(series[0].missing, 0.5);
  EXPECT_DOUBLE_EQ(series[0].allocated, 5.0);
  EXPECT_DOUBLE_EQ(series[0].free, 5.0);
}

}  // namespace
}  // namespace allot
