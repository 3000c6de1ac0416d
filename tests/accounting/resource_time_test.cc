#include "accounting/resource_time.h"

#include <gtest/gtest.h>

#include "accounting/calendar_day.h"
#include "accounting/ledger.h"

namespace allot {
namespace {

constexpr int64_t kGiB = int64_t{1} << 30;

TEST(ResourceTime, ConvertsToGpuCpuAndMemoryGiBHours) {
  const ResourceTime t = ResourceTime::of({2, 1500, 3 * kGiB}, Duration::minutes(90));
  EXPECT_DOUBLE_EQ(t.hours(Resource::kGpu), 3.0);
  EXPECT_DOUBLE_EQ(t.hours(Resource::kCpu), 2.25);
  EXPECT_DOUBLE_EQ(t.hours(Resource::kMemory), 4.5);
}

TEST(ResourceTime, APetabyteHeldForAYearDoesNotOverflow) {
  const ResourceTime t = ResourceTime::of({0, 0, int64_t{1} << 50}, Duration::hours(24 * 366));
  EXPECT_DOUBLE_EQ(t.hours(Resource::kMemory), 1048576.0 * 24 * 366);
  EXPECT_TRUE((t - t).is_zero());
}

TEST(CalendarDay, LabelsUtcDaysIncludingBeforeTheEpochAndLeapDays) {
  EXPECT_EQ(day_label(Timestamp::from_millis(0)), "1970-01-01");
  EXPECT_EQ(day_label(Timestamp::from_millis(-1)), "1969-12-31");
  EXPECT_EQ(day_label(Timestamp::from_millis(951782400000)), "2000-02-29");
  EXPECT_EQ(day_label(Timestamp::from_millis(1796256000000 - 1)), "2026-12-02");
  EXPECT_EQ(day_start(Timestamp::from_millis(1796256000000 + 5)).ms(), 1796256000000);
}

TEST(Periods, SubtractingHolesLeavesTheCoveredSpansInOrder) {
  const auto at = [](int64_t h) { return Timestamp::from_millis(h * 3'600'000); };
  const std::vector<Period> left =
      subtract_periods({at(0), at(10)}, {{at(8), at(12)}, {at(2), at(3)}, {at(2), at(4)}});
  ASSERT_EQ(left.size(), 2u);
  EXPECT_EQ(left[0], (Period{at(0), at(2)}));
  EXPECT_EQ(left[1], (Period{at(4), at(8)}));
  EXPECT_TRUE(subtract_periods({at(0), at(1)}, {{at(0), at(1)}}).empty());
}

}  // namespace
}  // namespace allot
