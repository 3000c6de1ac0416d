// ActivityTimeline: the step function kept change by change gives the same
// means per bucket as count_series() over the spans it was made of, in
// order or not (property test over random spans), and drops what cancels.
#include "accounting/activity_timeline.h"

#include <algorithm>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "accounting/activity_series.h"

namespace allot {
namespace {

Timestamp tl_at(int64_t s) { return Timestamp::from_millis(s * 1000); }

void add_span(ActivityTimeline& timeline, const CountSpan& span, int64_t sign) {
  timeline.add(span.from, sign);
  if (span.to) timeline.add(*span.to, -sign);
}

TEST(ActivityTimeline, MeansAreCountSeriesOfTheSpans) {
  std::mt19937 random(16);
  for (int round = 0; round < 50; ++round) {
    std::vector<CountSpan> spans;
    std::uniform_int_distribution<int64_t> second(-200, 900);
    for (int i = 0; i < 40; ++i) {
      const int64_t a = second(random);
      const int64_t b = a + second(random) % 300;
      spans.push_back(b > a ? CountSpan{tl_at(a), tl_at(b)} : CountSpan{tl_at(a), std::nullopt});
    }
    ActivityTimeline in_order;
    ActivityTimeline shuffled;
    std::vector<std::pair<Timestamp, int64_t>> changes;
    for (const CountSpan& span : spans) {
      changes.emplace_back(span.from, 1);
      if (span.to) changes.emplace_back(*span.to, -1);
    }
    std::sort(changes.begin(), changes.end());
    for (const auto& [at, delta] : changes) in_order.add(at, delta);
    for (const CountSpan& span : spans) add_span(shuffled, span, 1);
    const Timestamp from = tl_at(second(random));
    const Duration bucket = Duration::seconds(37);
    const std::vector<double> expected = count_series(spans, from, bucket, 20);
    std::vector<double> got_in_order;
    std::vector<double> got_shuffled;
    in_order.add_means(from, bucket, 20, got_in_order);
    shuffled.add_means(from, bucket, 20, got_shuffled);
    ASSERT_EQ(got_in_order.size(), expected.size());
    for (size_t i = 0; i < expected.size(); ++i) {
      EXPECT_NEAR(got_in_order[i], expected[i], 1e-9) << "round " << round << " bucket " << i;
      EXPECT_NEAR(got_shuffled[i], expected[i], 1e-9) << "round " << round << " bucket " << i;
    }
  }
}

TEST(ActivityTimeline, AChangeInThePastCountsFromThenAndWhatCancelsIsDropped) {
  ActivityTimeline timeline;
  add_span(timeline, {tl_at(0), tl_at(60)}, 1);
  add_span(timeline, {tl_at(30), std::nullopt}, 1);
  EXPECT_EQ(timeline.count_at(tl_at(45)), 2);
  add_span(timeline, {tl_at(0), tl_at(60)}, -1);  // taken back (a deleted workload)
  EXPECT_EQ(timeline.count_at(tl_at(10)), 0);
  EXPECT_EQ(timeline.count_at(tl_at(45)), 1);
  std::vector<double> means;
  timeline.add_means(tl_at(0), Duration::seconds(60), 2, means);
  EXPECT_DOUBLE_EQ(means[0], 0.5);
  EXPECT_DOUBLE_EQ(means[1], 1.0);
  add_span(timeline, {tl_at(30), std::nullopt}, -1);
  EXPECT_TRUE(timeline.empty());
}

}  // namespace
}  // namespace allot
