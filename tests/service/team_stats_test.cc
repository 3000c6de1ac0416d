// The Teams view's pure parts (service/control/team_stats.h): the ranges
// and their buckets, and exact nearest-rank wait percentiles by hand.
#include "service/control/team_stats.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

TEST(TeamStatsRange, FourRangesWithTheirBucketsAndNothingElse) {
  EXPECT_EQ(parse_stats_range("1h").value().bucket, Duration::minutes(1));
  EXPECT_EQ(parse_stats_range("24h").value().bucket, Duration::hours(1));
  EXPECT_EQ(parse_stats_range("7d").value().span, Duration::hours(168));
  EXPECT_EQ(parse_stats_range("7d").value().bucket, Duration::hours(6));
  EXPECT_EQ(parse_stats_range("30d").value().span, Duration::hours(720));
  EXPECT_EQ(parse_stats_range("30d").value().bucket, Duration::hours(24));
  for (const char* bad : {"", "2h", "1H", "24h ", "1d"}) {
    const Result<StatsRange> refused = parse_stats_range(bad);
    ASSERT_FALSE(refused.ok()) << bad;
    EXPECT_EQ(refused.status().code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(refused.status().message().find("range"), std::string::npos);
  }
}

TEST(TeamStatsWaits, NearestRankIsAnObservedWait) {
  // 1..100 in any order: p50 is the 50th, p90 the 90th, p99 the 99th.
  std::vector<double> hundred;
  for (int i = 100; i >= 1; --i) hundred.push_back(i);
  const WaitPercentiles p = wait_percentiles(hundred);
  EXPECT_EQ(p.admitted, 100);
  EXPECT_EQ(p.p50, 50.0);
  EXPECT_EQ(p.p90, 90.0);
  EXPECT_EQ(p.p99, 99.0);
  // Ten waits: the 5th, the 9th, and the 10th (99 % of 10 rounds up).
  const WaitPercentiles ten = wait_percentiles({9, 1, 8, 2, 7, 3, 6, 4, 5, 30});
  EXPECT_EQ(ten.p50, 5.0);
  EXPECT_EQ(ten.p90, 9.0);
  EXPECT_EQ(ten.p99, 30.0);
  const WaitPercentiles one = wait_percentiles({2.5});
  EXPECT_EQ(one.p50, 2.5);
  EXPECT_EQ(one.p99, 2.5);
  const WaitPercentiles none = wait_percentiles({});
  EXPECT_EQ(none.admitted, 0);
  EXPECT_EQ(none.p99, 0.0);
}

}  // namespace
}  // namespace allot
