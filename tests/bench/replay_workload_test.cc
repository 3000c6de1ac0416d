// replay_workload: the Workload `allot-bench replay` submits: the scenario's
// workload, its pods running `sleep RUNTIME` (a real process), no spec.sleep.
#include "bench/replay_workload.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace allot::bench {
namespace {

TEST(ReplayWorkload, SleepSecondsKeepMillisecondsWithoutTrailingZeros) {
  EXPECT_EQ(sleep_seconds(Duration::seconds(12)), "12");
  EXPECT_EQ(sleep_seconds(Duration::millis(12'500)), "12.5");
  EXPECT_EQ(sleep_seconds(Duration::millis(250)), "0.25");
  EXPECT_EQ(sleep_seconds(Duration::millis(1)), "0.001");
  EXPECT_EQ(sleep_seconds(Duration::millis(60'010)), "60.01");
  EXPECT_EQ(sleep_seconds(Duration()), "0");
}

TEST(ReplayWorkload, PodsRunSleepForTheRuntimeInsteadOfTheScenarioCommand) {
  Arrival arrival;
  arrival.at = Timestamp::from_millis(1'000);
  arrival.runtime = Duration::millis(12'500);
  arrival.workload.meta.name = "train-1";
  arrival.workload.meta.namespace_name = "research";
  arrival.workload.spec.priority_class = "batch";
  arrival.workload.spec.command = {"python", "train.py"};
  PodSet pods;
  pods.name = "main";
  pods.count = 2;
  arrival.workload.spec.pod_sets = {pods};
  const nlohmann::json body = nlohmann::json::parse(replay_workload_body(arrival));
  EXPECT_EQ(body["apiVersion"], "allot/v1");
  EXPECT_EQ(body["kind"], "Workload");
  EXPECT_EQ(body["metadata"], nlohmann::json({{"name", "train-1"}, {"namespace", "research"}}));
  EXPECT_EQ(body["spec"]["command"], nlohmann::json({"sleep", "12.5"}));
  EXPECT_FALSE(body["spec"].contains("sleep"));
  EXPECT_EQ(body["spec"]["priorityClass"], "batch");
  EXPECT_EQ(body["spec"]["podSets"][0]["count"], 2);
}

TEST(ReplayWorkload, AClassStartLatencyReplacesTheScenariosForItsWorkloads) {
  Scenario scenario;
  scenario.pod_start_latency = Duration::millis(100);
  scenario.pod_start_latency_by_class = {{"small", Duration::millis(1900)}};
  scenario.pod_stop_latency = Duration::seconds(2);
  const PodLatencies small = pod_latencies_of(scenario, "small");
  EXPECT_EQ(small.start, Duration::millis(1900));
  EXPECT_EQ(small.stop, Duration::seconds(2));
  EXPECT_EQ(pod_latencies_of(scenario, "large").start, Duration::millis(100));
  EXPECT_EQ(pod_latencies_of(scenario, "").start, Duration::millis(100));
  EXPECT_EQ(pod_latencies_of(Scenario{}, "small").start, Duration());
  EXPECT_EQ(pod_latencies_of(Scenario{}, "small").stop, std::nullopt);
}

TEST(ReplayWorkload, LatenciesWrapTheSleepInAShellThatStartsLateAndStopsSlowly) {
  EXPECT_EQ(replay_command(Duration::millis(200), {}), (std::vector<std::string>{"sleep", "0.2"}));
  EXPECT_EQ(
      replay_command(Duration::millis(200), {Duration::seconds(1), Duration::seconds(5)}),
      (std::vector<std::string>{
          "sh", "-c", "trap 'sleep 5; exit 143' TERM; sleep 1 & wait $!; sleep 0.2 & wait $!"}));
  EXPECT_EQ(replay_command(Duration::seconds(2), {Duration::seconds(1), std::nullopt}),
            (std::vector<std::string>{"sh", "-c", "sleep 1 & wait $!; sleep 2 & wait $!"}));
  Arrival arrival;
  arrival.runtime = Duration::seconds(3);
  arrival.workload.meta.name = "a";
  arrival.workload.meta.namespace_name = "t";
  const nlohmann::json body =
      nlohmann::json::parse(replay_workload_body(arrival, {Duration(), Duration::seconds(5)}));
  EXPECT_EQ(body["spec"]["command"],
            nlohmann::json({"sh", "-c", "trap 'sleep 5; exit 143' TERM; sleep 3 & wait $!"}));
}

}  // namespace
}  // namespace allot::bench
