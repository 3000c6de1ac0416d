// Signals over a scripted history of metric samples, on the samples' own
// clock: instant, rate and avg_over_time queries, histogram_quantile, and
// the state machine (pending, `for`, firing, resolving).
#include "accounting/signal_evaluation.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

Timestamp at_s(int64_t seconds) { return Timestamp::from_millis(seconds * 1000); }

MetricPoint point(std::string name, MetricLabels labels, double value) {
  return {std::move(name), std::move(labels), value};
}

SignalQuery instant(std::string metric, std::vector<LabelMatcher> matchers, Comparison op,
                    double threshold) {
  SignalQuery q;
  q.selector = {std::move(metric), std::move(matchers)};
  q.comparison = op;
  q.threshold = threshold;
  return q;
}

TEST(SignalEvaluation, AnInstantSelectorReadsTheNewestScrapeWithItsMatchers) {
  MetricHistory history;
  history.push_back({at_s(0), {point("allot_node_healthy", {{"node", "a"}}, 0)}});
  history.push_back({at_s(15),
                     {point("allot_node_healthy", {{"node", "a"}}, 1),
                      point("allot_node_healthy", {{"node", "b"}}, 0),
                      point("allot_node_healthy", {{"node", "c"}}, 0)}});
  const SignalQuery q =
      instant("allot_node_healthy", {{"node", false, "c"}}, Comparison::kEqual, 0);
  const std::vector<SignalMatch> matches = evaluate_signal(q, history);
  ASSERT_EQ(matches.size(), 1u);  // a is healthy now; c is excluded by node!="c"
  EXPECT_EQ(matches[0].labels, (MetricLabels{{"node", "b"}}));
  EXPECT_TRUE(evaluate_signal(q, {}).empty());
}

TEST(SignalEvaluation, ASignalHasDataWhileItsSelectorSelectsASeriesOfTheNewestScrape) {
  const SignalQuery q =
      instant("allot_budget_used_ratio", {{"budget", true, "b"}}, Comparison::kGreater, 0.8);
  MetricHistory history;
  EXPECT_FALSE(signal_has_data(q, history)) << "nothing scraped yet";
  history.push_back({at_s(0), {point("allot_budget_used_ratio", {{"budget", "b"}}, 0.1)}});
  EXPECT_TRUE(signal_has_data(q, history)) << "data, whatever the value";
  EXPECT_TRUE(evaluate_signal(q, history).empty());
  history.push_back({at_s(15),
                     {point("allot_budget_used_ratio", {{"budget", "c"}}, 0.9),
                      point("allot_budget_amount", {{"budget", "b"}}, 10)}});
  EXPECT_FALSE(signal_has_data(q, history)) << "b's ratio is gone from the newest scrape";
}

TEST(SignalEvaluation, RateIsTheIncreaseOverTheSpanCountingResetsAndNeedsTwoSamples) {
  SignalQuery q = instant("allot_preemptions_total", {}, Comparison::kGreater, 0);
  q.function = RangeFunction::kRate;
  q.window = Duration::seconds(60);
  MetricHistory history;
  const MetricLabels team = {{"reason", "FairShare"}, {"team", "ml"}};
  history.push_back({at_s(0), {point("allot_preemptions_total", team, 10)}});
  EXPECT_TRUE(evaluate_signal(q, history).empty());  // one sample: no rate
  history.push_back({at_s(20), {point("allot_preemptions_total", team, 14)}});
  history.push_back({at_s(40), {point("allot_preemptions_total", team, 2)}});  // restart
  const std::vector<SignalMatch> matches = evaluate_signal(q, history);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_DOUBLE_EQ(matches[0].value, (4.0 + 2.0) / 40.0);
  // The first sample falls out of a 30 s window: (2 after the reset) / 20 s.
  q.window = Duration::seconds(30);
  EXPECT_DOUBLE_EQ(evaluate_signal(q, history).at(0).value, 2.0 / 20.0);
}

TEST(SignalEvaluation, AvgOverTimeAveragesTheWindowPerSeries) {
  SignalQuery q =
      instant("allot_team_usage", {{"resource", true, "gpu"}}, Comparison::kGreaterEqual, 5);
  q.function = RangeFunction::kAvgOverTime;
  q.window = Duration::minutes(1);
  MetricHistory history;
  for (int i = 0; i < 4; ++i) {
    history.push_back({at_s(i * 20),
                       {point("allot_team_usage", {{"resource", "gpu"}, {"team", "a"}}, i * 2.0),
                        point("allot_team_usage", {{"resource", "cpu"}, {"team", "a"}}, 99)}});
  }
  // Samples at 20, 40, 60 s are within (0, 60]: (2 + 4 + 6) / 3 = 4 < 5.
  EXPECT_TRUE(evaluate_signal(q, history).empty());
  q.threshold = 4;
  ASSERT_EQ(evaluate_signal(q, history).size(), 1u);
  EXPECT_DOUBLE_EQ(evaluate_signal(q, history)[0].value, 4.0);
}

TEST(SignalEvaluation, HistogramQuantileInterpolatesWithinTheBucketLikePrometheus) {
  SignalQuery q = instant("allot_admission_wait_seconds_bucket", {}, Comparison::kGreater, 100);
  q.function = RangeFunction::kRate;
  q.window = Duration::minutes(10);
  q.quantile = 0.95;
  auto scrape = [](int64_t s, double in_10, double in_1000, double total) {
    const std::string name = "allot_admission_wait_seconds_bucket";
    return MetricScrape{at_s(s),
                        {point(name, {{"le", "10"}, {"team", "ml"}}, in_10),
                         point(name, {{"le", "1000"}, {"team", "ml"}}, in_1000),
                         point(name, {{"le", "+Inf"}, {"team", "ml"}}, total)}};
  };
  MetricHistory history;
  history.push_back(scrape(0, 0, 0, 0));
  // 100 admissions: 50 waited <= 10 s, 50 within (10, 1000].
  history.push_back(scrape(100, 50, 100, 100));
  const std::vector<SignalMatch> matches = evaluate_signal(q, history);
  ASSERT_EQ(matches.size(), 1u);
  EXPECT_EQ(matches[0].labels, (MetricLabels{{"team", "ml"}}));  // le is gone
  // rank 95 of 100: 45 of the 50 in (10, 1000] -> 10 + 990 * 0.9.
  EXPECT_DOUBLE_EQ(matches[0].value, 10 + 990 * 0.9);
  q.threshold = 950;
  EXPECT_TRUE(evaluate_signal(q, history).empty());
}

TEST(SignalEvaluation, FiresOnlyAfterTheConditionHeldForItsForAndResolves) {
  SignalTracker tracker;
  const Duration hold = Duration::minutes(5);
  const std::vector<SignalMatch> bad = {{{{"node", "n1"}}, 0}};
  EXPECT_EQ(step_signal(tracker, {}, hold, at_s(0)), SignalTransition::kNone);
  EXPECT_EQ(tracker.state, SignalState::kInactive);
  EXPECT_EQ(step_signal(tracker, bad, hold, at_s(60)), SignalTransition::kNone);
  EXPECT_EQ(tracker.state, SignalState::kPending);
  EXPECT_EQ(tracker.since, at_s(60));
  // An interruption starts the hold again.
  EXPECT_EQ(step_signal(tracker, {}, hold, at_s(120)), SignalTransition::kNone);
  EXPECT_EQ(tracker.state, SignalState::kInactive);
  EXPECT_EQ(step_signal(tracker, bad, hold, at_s(180)), SignalTransition::kNone);
  EXPECT_EQ(step_signal(tracker, bad, hold, at_s(479)), SignalTransition::kNone);
  EXPECT_EQ(tracker.state, SignalState::kPending);
  EXPECT_EQ(step_signal(tracker, bad, hold, at_s(480)), SignalTransition::kFired);
  EXPECT_EQ(tracker.state, SignalState::kFiring);
  EXPECT_EQ(tracker.since, at_s(480));
  EXPECT_EQ(tracker.matches, bad);
  EXPECT_EQ(step_signal(tracker, bad, hold, at_s(600)), SignalTransition::kNone);  // once
  EXPECT_EQ(step_signal(tracker, {}, hold, at_s(660)), SignalTransition::kResolved);
  EXPECT_EQ(tracker.state, SignalState::kInactive);
  EXPECT_EQ(tracker.since, at_s(660));
}

TEST(SignalEvaluation, WithoutForItFiresAtTheFirstStepThatHolds) {
  SignalTracker tracker;
  EXPECT_EQ(step_signal(tracker, {{{}, 1}}, Duration(), at_s(5)), SignalTransition::kFired);
  EXPECT_EQ(signal_state_name(tracker.state), "firing");
  EXPECT_EQ(labels_text({{"a", "1"}, {"b", "2"}}), "a=1,b=2");
}

}  // namespace
}  // namespace allot
