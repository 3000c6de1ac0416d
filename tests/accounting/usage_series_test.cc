// usage_series(): mean GPUs held, borrowed and lent per bucket, by hand.
#include "accounting/usage_series.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

AllocationInterval series_interval(const std::string& team, int64_t own, int64_t borrowed,
                                   int64_t start_s, std::optional<int64_t> end_s) {
  AllocationInterval a;
  a.team = TeamId(team);
  a.flavor = "gpu";
  a.own = ResourceVector(own, 0, 0);
  a.borrowed = ResourceVector(borrowed, 0, 0);
  a.start = Timestamp::from_millis(start_s * 1000);
  if (end_s) a.end = Timestamp::from_millis(*end_s * 1000);
  return a;
}

// Teams a (4 GPUs) and b (8) share cohort tree org; c (2) has no cohort.
std::vector<SeriesTeam> series_teams() {
  return {{TeamId("a"), "org", {{"gpu", 4}}},
          {TeamId("b"), "org", {{"gpu", 8}}},
          {TeamId("c"), "", {{"gpu", 2}}}};
}

TEST(UsageSeries, MeansPerBucketAndLendingByIdleQuota) {
  const std::vector<AllocationInterval> allocations = {
      series_interval("b", 8, 2, 30, std::nullopt),  // 10 GPUs from 30 s, still held
      series_interval("c", 2, 0, 0, 90),             // 2 GPUs for 90 s
      series_interval("gone", 5, 0, 0, 180),         // a team not asked about
  };
  const auto series = usage_series(allocations, series_teams(), Timestamp::from_millis(0),
                                   Duration::seconds(60), 3);
  ASSERT_EQ(series.size(), 3u);
  const std::vector<UsageBucket>& a = series.at(TeamId("a"));
  const std::vector<UsageBucket>& b = series.at(TeamId("b"));
  const std::vector<UsageBucket>& c = series.at(TeamId("c"));
  ASSERT_EQ(b.size(), 3u);
  // b held 10 for half of the first minute: 5 on average, 1 of them borrowed.
  EXPECT_DOUBLE_EQ(b[0].gpus, 5.0);
  EXPECT_DOUBLE_EQ(b[0].borrowed, 1.0);
  EXPECT_DOUBLE_EQ(b[1].gpus, 10.0);
  EXPECT_DOUBLE_EQ(b[2].borrowed, 2.0);
  // First minute: a idles 4, b idles 8 - 5 = 3; the 1 borrowed is lent 4:3.
  EXPECT_DOUBLE_EQ(a[0].lent, 4.0 / 7.0);
  EXPECT_DOUBLE_EQ(b[0].lent, 3.0 / 7.0);
  // Then b idles nothing: a lends all 2.
  EXPECT_DOUBLE_EQ(a[1].lent, 2.0);
  EXPECT_DOUBLE_EQ(b[1].lent, 0.0);
  EXPECT_DOUBLE_EQ(a[2].gpus, 0.0);
  // c: 2, then half a minute of 2, then nothing; no cohort: lends nothing.
  EXPECT_DOUBLE_EQ(c[0].gpus, 2.0);
  EXPECT_DOUBLE_EQ(c[1].gpus, 1.0);
  EXPECT_DOUBLE_EQ(c[2].gpus, 0.0);
  EXPECT_DOUBLE_EQ(c[0].lent, 0.0);
}

TEST(UsageSeries, LendingNeverExceedsTheIdleQuota) {
  // b borrows 6 (say from a quota since lowered): a idles 4 and lends 4, not 6.
  const auto series = usage_series({series_interval("b", 8, 6, 0, std::nullopt)}, series_teams(),
                                   Timestamp::from_millis(0), Duration::seconds(60), 1);
  EXPECT_DOUBLE_EQ(series.at(TeamId("a"))[0].lent, 4.0);
  EXPECT_DOUBLE_EQ(series.at(TeamId("b"))[0].gpus, 14.0);
}

TEST(UsageSeries, NoBucketsIsEmptySeries) {
  const auto series = usage_series({series_interval("b", 8, 0, 0, 10)}, series_teams(),
                                   Timestamp::from_millis(0), Duration::seconds(60), 0);
  EXPECT_TRUE(series.at(TeamId("b")).empty());
}

}  // namespace
}  // namespace allot
