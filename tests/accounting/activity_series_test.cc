// count_series(), workload_activity_spans() and firing_spans(): the Tasks and Signals
// charts' counts per bucket, by hand.
#include "accounting/activity_series.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

Timestamp act_at(int64_t s) { return Timestamp::from_millis(s * 1000); }

TEST(ActivitySeries, CountsAreMeansOfTheSpansOpenInEachBucket) {
  // One span over the whole of minute 0 and half of minute 1, one from 90 s
  // on (open), one before the range, one after it.
  const std::vector<CountSpan> spans = {{act_at(0), act_at(90)},
                                        {act_at(90), std::nullopt},
                                        {act_at(-100), act_at(-10)},
                                        {act_at(500), std::nullopt}};
  const std::vector<double> series = count_series(spans, act_at(0), Duration::seconds(60), 3);
  ASSERT_EQ(series.size(), 3u);
  EXPECT_DOUBLE_EQ(series[0], 1.0);
  EXPECT_DOUBLE_EQ(series[1], 1.0);  // 0.5 + 0.5
  EXPECT_DOUBLE_EQ(series[2], 1.0);  // the open one
  EXPECT_TRUE(count_series(spans, act_at(0), Duration::seconds(60), 0).empty());
}

TEST(ActivitySeries, AWorkloadIsPendingUntilFirstAdmittedThenRunningUntilFinished) {
  const WorkloadSpans admitted =
      workload_activity_spans({act_at(10), {{act_at(40), act_at(100)}}, act_at(100), false});
  EXPECT_EQ(admitted.pending, (std::vector<CountSpan>{{act_at(10), act_at(40)}}));
  EXPECT_EQ(admitted.running, (std::vector<CountSpan>{{act_at(40), act_at(100)}}));
  const WorkloadSpans running =
      workload_activity_spans({act_at(10), {{act_at(40), std::nullopt}}, std::nullopt, false});
  EXPECT_EQ(running.running, (std::vector<CountSpan>{{act_at(40), std::nullopt}}));
  // Cancelled while pending: pending until then, never running.
  const WorkloadSpans cancelled = workload_activity_spans({act_at(10), {}, act_at(30), false});
  EXPECT_EQ(cancelled.pending, (std::vector<CountSpan>{{act_at(10), act_at(30)}}));
  EXPECT_TRUE(cancelled.running.empty());
  EXPECT_EQ(workload_activity_spans({act_at(10), {}, std::nullopt, true}).pending,
            (std::vector<CountSpan>{{act_at(10), std::nullopt}}));
}

TEST(ActivitySeries, ARequeuedWorkloadIsPendingAgainUntilItsNextAdmission) {
  // Admitted at 40, preempted (quota released) at 70, admitted again at 90,
  // evicted at 120 and waiting since.
  const WorkloadSpans requeued = workload_activity_spans(
      {act_at(10), {{act_at(40), act_at(70)}, {act_at(90), act_at(120)}}, std::nullopt, true});
  EXPECT_EQ(requeued.pending,
            (std::vector<CountSpan>{
                {act_at(10), act_at(40)}, {act_at(70), act_at(90)}, {act_at(120), std::nullopt}}));
  EXPECT_EQ(requeued.running,
            (std::vector<CountSpan>{{act_at(40), act_at(70)}, {act_at(90), act_at(120)}}));
  // Cancelled while queued again: pending until the cancel.
  const WorkloadSpans cancelled =
      workload_activity_spans({act_at(10), {{act_at(40), act_at(70)}}, act_at(100), false});
  EXPECT_EQ(cancelled.pending,
            (std::vector<CountSpan>{{act_at(10), act_at(40)}, {act_at(70), act_at(100)}}));
  // Finished with its run: nothing pending after it.
  const WorkloadSpans done =
      workload_activity_spans({act_at(10), {{act_at(10), act_at(70)}}, act_at(70), false});
  EXPECT_TRUE(done.pending.empty());
}

TEST(ActivitySeries, ASignalFiresFromFiredToResolved) {
  const std::vector<CountSpan> spans =
      firing_spans({{act_at(0), false},  // fired before anything kept
                    {act_at(10), true},
                    {act_at(20), false},
                    {act_at(30), true}});
  ASSERT_EQ(spans.size(), 3u);
  EXPECT_EQ(spans[0], (CountSpan{Timestamp{}, act_at(0)}));
  EXPECT_EQ(spans[1], (CountSpan{act_at(10), act_at(20)}));
  EXPECT_EQ(spans[2], (CountSpan{act_at(30), std::nullopt}));
  EXPECT_TRUE(firing_spans({}).empty());
  // Two signals firing for 15 s and 30 s of one minute: 0.75 firing on average.
  const std::vector<double> series = count_series(
      {{act_at(0), act_at(15)}, {act_at(30), std::nullopt}}, act_at(0), Duration::seconds(60), 1);
  EXPECT_DOUBLE_EQ(series[0], 0.75);
}

}  // namespace
}  // namespace allot
