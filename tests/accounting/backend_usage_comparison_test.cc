// The whole hours a backend usage comparison asks of the backend's rollups:
// `from` down and `to` up to the hour, a whole hour kept as it is.
#include "accounting/backend_usage_comparison.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

constexpr int64_t kHour = 3'600'000;

Timestamp ms(int64_t value) { return Timestamp::from_millis(value); }

TEST(BackendUsageComparison, WidensThePeriodToTheWholeHoursAroundIt) {
  const int64_t base = 500'000 * kHour;
  const HourWindow inside = whole_hours_around(ms(base + 1), ms(base + kHour - 1)).value();
  EXPECT_EQ(inside.from, ms(base));
  EXPECT_EQ(inside.to, ms(base + kHour));
  const HourWindow whole = whole_hours_around(ms(base), ms(base + 2 * kHour)).value();
  EXPECT_EQ(whole.from, ms(base));
  EXPECT_EQ(whole.to, ms(base + 2 * kHour)) << "an hour's end is not widened";
  const HourWindow across = whole_hours_around(ms(base - 1), ms(base + 1)).value();
  EXPECT_EQ(across.from, ms(base - kHour));
  EXPECT_EQ(across.to, ms(base + kHour));
  const HourWindow before_epoch = whole_hours_around(ms(-kHour - 5), ms(-5)).value();
  EXPECT_EQ(before_epoch.from, ms(-2 * kHour));
  EXPECT_EQ(before_epoch.to, ms(0));
  EXPECT_EQ(whole_hours_around(ms(base), ms(base)).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(whole_hours_around(ms(base + 1), ms(base)).status().code(),
            ErrorCode::kInvalidArgument);
}

}  // namespace
}  // namespace allot
