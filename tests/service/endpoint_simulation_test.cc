// Issue 12, "Inference endpoints", in the simulator
// (examples/scenarios/inference-endpoint.yaml): min replicas guaranteed,
// burst on idle capacity, reclaim of the burst, scale-down.
#include <gtest/gtest.h>

#include "scenario_fixture.h"
#include "service/simulation/arrival_stream.h"
#include "service/simulation/simulation_runner.h"

namespace allot {
namespace {

using testing::record_of;
using testing::virtual_options;

constexpr double kMinute = 60;

class EndpointSimulation : public ::testing::Test {
 protected:
  void SetUp() override {
    const testing::LoadedScenario scenario = testing::load_example("inference-endpoint");
    testing::PlanInvariants invariants(scenario.policy);
    SimulationOptions options = virtual_options();
    invariants.attach(options);
    Result<SimulationReport> run = run_simulation(scenario.policy, scenario.scenario, options);
    ASSERT_TRUE(run.ok()) << run.status().to_string();
    EXPECT_TRUE(invariants.violations().empty()) << invariants.violations().front();
    report_ = std::move(run).value();
  }
  SimulationReport report_;
};

TEST_F(EndpointSimulation, MinReplicasReclaimTheirGuaranteeFromABorrower) {
  for (const char* name : {"chat-0", "chat-1"}) {
    const WorkloadRecord& replica = record_of(report_, name);
    ASSERT_TRUE(replica.admitted_s.has_value()) << name;
    // Arrived at 5m; the research victims stop within their 30 s grace period.
    EXPECT_LE(*replica.admitted_s, 5 * kMinute + 35) << name;
    // Never preempted, not even when research reclaims its quota at 3h.
    EXPECT_EQ(replica.preemptions, 0) << name;
  }
  int32_t research_preemptions = 0;
  for (const char* name : {"r-0", "r-1", "r-2", "r-3"}) {
    research_preemptions += record_of(report_, name).preemptions;
  }
  EXPECT_EQ(research_preemptions, 2) << "exactly serving's 16 GPUs are reclaimed";
}

TEST_F(EndpointSimulation, BurstReplicasRunOnIdleCapacityAndAreReclaimedFirst) {
  for (const char* name : {"chat-2", "chat-3"}) {
    const WorkloadRecord& replica = record_of(report_, name);
    ASSERT_TRUE(replica.admitted_s.has_value()) << name;
    EXPECT_EQ(replica.submitted_s, 150 * kMinute) << name;  // the scale event
    EXPECT_LE(*replica.admitted_s, 150 * kMinute + 1) << name;
    EXPECT_EQ(replica.preemptions, 1) << name << ": research's eval reclaimed it";
    EXPECT_EQ(replica.lost_work_s, 0) << name << ": a replica serves; nothing is done again";
  }
  // Research's reclaimed jobs (no checkpoints) lose their progress all the same.
  EXPECT_GT(record_of(report_, "r-0").lost_work_s, 0);
  const WorkloadRecord& eval = record_of(report_, "eval");
  ASSERT_TRUE(eval.admitted_s.has_value());
  EXPECT_LE(*eval.admitted_s, 180 * kMinute + 35);  // the burst replicas' grace period
}

TEST_F(EndpointSimulation, ScaleDownStopsTheReplicasAboveTheNewCount) {
  for (const char* name : {"chat-2", "chat-3"}) {
    const WorkloadRecord& replica = record_of(report_, name);
    EXPECT_EQ(replica.state, "ScaledDown") << name;
    ASSERT_TRUE(replica.finished_s.has_value()) << name;
    // Asked to stop at 3h45m; it ends within its grace period.
    EXPECT_GE(*replica.finished_s, 225 * kMinute) << name;
    EXPECT_LE(*replica.finished_s, 225 * kMinute + 31) << name;
  }
  // The guaranteed replicas serve until the endpoint's life ends (5m + 4h).
  const WorkloadRecord& guaranteed = record_of(report_, "chat-0");
  ASSERT_TRUE(guaranteed.finished_s.has_value());
  EXPECT_GE(*guaranteed.finished_s, 245 * kMinute);
  EXPECT_TRUE(report_.never_admitted.empty());
}

// The expansion itself: stretches of time become arrivals; bad events are refused.
TEST(EndpointArrivals, EachStretchAReplicaIsWantedIsOneArrival) {
  testing::LoadedScenario scenario = testing::load_example("inference-endpoint");
  scenario.scenario.scale_events.push_back({Duration::minutes(230), "serving", "chat", 3});
  const Result<ArrivalStream> stream = ArrivalStream::from_scenario(scenario.scenario);
  ASSERT_TRUE(stream.ok()) << stream.status().to_string();
  std::vector<std::string> names;
  for (const Arrival& arrival : stream->arrivals()) {
    if (arrival.replica >= 0) names.push_back(arrival.workload.meta.name);
  }
  // Desired: 2 from 5m, 4 from 2h30m, 2 from 3h45m, 3 from 3h50m, until 4h05m. chat-2 is
  // wanted twice, chat-3 once; arrivals are in time order.
  EXPECT_EQ(names, (std::vector<std::string>{"chat-0", "chat-1", "chat-2", "chat-3", "chat-2-2"}));
  for (const Arrival& arrival : stream->arrivals()) {
    const std::string& name = arrival.workload.meta.name;
    if (name == "chat-3") {
      EXPECT_EQ(arrival.at, Timestamp::epoch() + Duration::minutes(150));
      EXPECT_EQ(arrival.withdraw_at, Timestamp::epoch() + Duration::minutes(225));
      EXPECT_EQ(arrival.runtime, Duration::minutes(75));
    }
    if (name == "chat-2-2") {
      EXPECT_EQ(arrival.replica, 2);
      EXPECT_EQ(arrival.withdraw_at, Timestamp::epoch() + Duration::minutes(245));
    }
  }
}

TEST(EndpointArrivals, RefusesEventsOutsideTheRangeOrForNoEndpoint) {
  testing::LoadedScenario scenario = testing::load_example("inference-endpoint");
  Scenario outside = scenario.scenario;
  outside.scale_events.push_back({Duration::minutes(60), "serving", "chat", 5});
  Result<ArrivalStream> stream = ArrivalStream::from_scenario(outside);
  ASSERT_FALSE(stream.ok());
  EXPECT_EQ(stream.status().details(), "Scenario.spec.scale[2].replicas");
  Scenario unknown = scenario.scenario;
  unknown.scale_events.push_back({Duration::minutes(60), "serving", "nope", 3});
  stream = ArrivalStream::from_scenario(unknown);
  ASSERT_FALSE(stream.ok());
  EXPECT_EQ(stream.status().details(), "Scenario.spec.scale[2].workload");
  Scenario early = scenario.scenario;
  early.scale_events.push_back({Duration::minutes(1), "serving", "chat", 3});
  stream = ArrivalStream::from_scenario(early);
  ASSERT_FALSE(stream.ok());
  EXPECT_EQ(stream.status().details(), "Scenario.spec.scale[2].at");
}

}  // namespace
}  // namespace allot
