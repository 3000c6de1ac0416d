#include "service/simulation/arrival_stream.h"

#include <optional>

#include <gtest/gtest.h>

namespace allot {
namespace {

Workload workload(std::string name, std::string ns = "team") {
  Workload w;
  w.meta.name = std::move(name);
  w.meta.namespace_name = std::move(ns);
  return w;
}

Timestamp at_ms(int64_t ms) { return Timestamp::from_millis(ms); }

TEST(ArrivalStream, ArrivalsAreSortedByTimeKeepingTheGivenOrderOfTies) {
  Result<ArrivalStream> stream = ArrivalStream::create({
      {at_ms(500), Duration::seconds(1), workload("late")},
      {at_ms(0), Duration::seconds(1), workload("first")},
      {at_ms(0), Duration::seconds(1), workload("second")},
  });
  ASSERT_TRUE(stream.ok()) << stream.status().to_string();
  ASSERT_EQ(stream->size(), 3u);
  EXPECT_EQ(stream->arrivals()[0].workload.meta.name, "first");
  EXPECT_EQ(stream->arrivals()[1].workload.meta.name, "second");
  EXPECT_EQ(stream->arrivals()[2].workload.meta.name, "late");
}

TEST(ArrivalStream, DuplicateNamesInANamespaceAreRejected) {
  Result<ArrivalStream> stream = ArrivalStream::create({
      {at_ms(0), Duration::seconds(1), workload("same")},
      {at_ms(1), Duration::seconds(1), workload("same")},
  });
  ASSERT_FALSE(stream.ok());
  EXPECT_EQ(stream.status().code(), ErrorCode::kInvalidArgument);
}

TEST(ArrivalStream, TheSameNameInTwoNamespacesIsFine) {
  Result<ArrivalStream> stream = ArrivalStream::create({
      {at_ms(0), Duration::seconds(1), workload("same", "a")},
      {at_ms(0), Duration::seconds(1), workload("same", "b")},
  });
  EXPECT_TRUE(stream.ok());
}

TEST(ArrivalStream, NegativeRuntimeIsRejected) {
  Result<ArrivalStream> stream =
      ArrivalStream::create({{at_ms(0), Duration::seconds(-1), workload("w")}});
  ASSERT_FALSE(stream.ok());
  EXPECT_NE(stream.status().details().find("runtime"), std::string::npos);
}

TEST(ArrivalStream, GeneratorsExpandIntoNamedArrivalsInterleavedByRound) {
  Scenario scenario;
  scenario.workloads.push_back(
      {Duration::millis(100), Duration::seconds(3), workload("solo"), std::nullopt, std::nullopt});
  ScenarioGenerator small;
  small.name_prefix = "small";
  small.namespace_name = "team";
  small.count = 3;
  small.every = Duration::millis(100);
  small.runtime = Duration::millis(200);
  ScenarioGenerator large = small;
  large.name_prefix = "large";
  large.count = 2;
  large.every = Duration::millis(1200);
  large.start = Duration::millis(100);
  scenario.generators = {small, large};

  Result<ArrivalStream> stream = ArrivalStream::from_scenario(scenario);
  ASSERT_TRUE(stream.ok()) << stream.status().to_string();
  std::vector<std::string> names;
  for (const Arrival& arrival : stream->arrivals()) {
    names.push_back(arrival.workload.meta.name + "@" + std::to_string(arrival.at.ms()));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"small-0@0", "solo@100", "large-0@100", "small-1@100",
                                             "small-2@200", "large-1@1300"}));
  EXPECT_EQ(stream->arrivals()[0].runtime, Duration::millis(200));
  EXPECT_EQ(stream->arrivals()[0].workload.meta.namespace_name, "team");
}

TEST(ArrivalStream, GeneratorWithoutPrefixIsNamedAfterNamespaceAndClass) {
  Scenario scenario;
  ScenarioGenerator generator;
  generator.namespace_name = "research";
  generator.spec.priority_class = "batch";
  generator.count = 1;
  scenario.generators = {generator};
  Result<ArrivalStream> stream = ArrivalStream::from_scenario(scenario);
  ASSERT_TRUE(stream.ok());
  EXPECT_EQ(stream->arrivals()[0].workload.meta.name, "research-batch-0");
}

TEST(ArrivalStream, AbsurdGeneratorCountsAreRejected) {
  Scenario scenario;
  ScenarioGenerator generator;
  generator.namespace_name = "team";
  generator.count = int64_t{1} << 40;
  scenario.generators = {generator};
  EXPECT_FALSE(ArrivalStream::from_scenario(scenario).ok());
}

TEST(ArrivalStream, GeneratorArrivalsBeyondTheTimeLimitAreRejected) {
  Scenario scenario;
  ScenarioGenerator generator;
  generator.namespace_name = "team";
  generator.count = 1000;
  generator.every = Duration::hours(1'000'000);
  scenario.generators = {generator};
  EXPECT_FALSE(ArrivalStream::from_scenario(scenario).ok());
}

}  // namespace
}  // namespace allot
