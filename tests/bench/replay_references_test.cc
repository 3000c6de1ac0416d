// replay_references: the scenarios of the reference simulations beside a replay.
#include "bench/replay_references.h"

#include <map>
#include <optional>
#include <string>

#include <gtest/gtest.h>

namespace allot::bench {
namespace {

ReplayMetrics measured() {
  ReplayMetrics real;
  real.held_beyond_runtime_ms = 1900;
  real.class_held_beyond_runtime_ms = {{"", 50}, {"large", -3}, {"small", 1900}};
  return real;
}

TEST(ReplayReferences, TheMedianOfAllRunsIsTheStartLatencyOfEveryPod) {
  const std::optional<Scenario> at_latency = scenario_at_start_latency(Scenario{}, measured());
  ASSERT_TRUE(at_latency.has_value());
  EXPECT_EQ(at_latency->pod_start_latency, Duration::millis(1900));
  EXPECT_TRUE(at_latency->pod_start_latency_by_class.empty());
}

TEST(ReplayReferences, EachNamedClassTakesItsOwnHeldTimeAndTheRestTheMedian) {
  const std::optional<Scenario> at_class = scenario_at_class_latencies(Scenario{}, measured());
  ASSERT_TRUE(at_class.has_value());
  EXPECT_EQ(at_class->pod_start_latency, Duration::millis(1900));  // workloads of no class
  // "" is not a class name; a negative held time counts as 0.
  EXPECT_EQ(
      at_class->pod_start_latency_by_class,
      (std::map<std::string, Duration>{{"large", Duration()}, {"small", Duration::millis(1900)}}));
}

TEST(ReplayReferences, NoReferenceWhereTheScenarioHasLatenciesOrNothingWasMeasured) {
  Scenario with_latency;
  with_latency.pod_start_latency = Duration::seconds(1);
  EXPECT_FALSE(scenario_at_start_latency(with_latency, measured()).has_value());
  EXPECT_FALSE(scenario_at_class_latencies(with_latency, measured()).has_value());
  Scenario with_class_latency;
  with_class_latency.pod_start_latency_by_class = {{"small", Duration::seconds(1)}};
  EXPECT_FALSE(scenario_at_start_latency(with_class_latency, measured()).has_value());
  EXPECT_FALSE(scenario_at_class_latencies(with_class_latency, measured()).has_value());

  EXPECT_FALSE(scenario_at_start_latency(Scenario{}, ReplayMetrics{}).has_value());
  ReplayMetrics classless = measured();
  classless.class_held_beyond_runtime_ms = {{"", 50}};
  EXPECT_TRUE(scenario_at_start_latency(Scenario{}, classless).has_value());
  EXPECT_FALSE(scenario_at_class_latencies(Scenario{}, classless).has_value());
}

}  // namespace
}  // namespace allot::bench
