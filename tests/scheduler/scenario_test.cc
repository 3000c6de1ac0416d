// Runs every scenario file in tests/scheduler/scenarios/ (see scenario_file.h
// for the format): load the state, plan one cycle, compare with `expect`.
#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>

#include "scenario_file.h"
#include "scheduler/scheduler.h"

namespace allot::testing {
namespace {

std::vector<std::string> scenario_files() {
  std::vector<std::string> files;
  for (const auto& entry :
       std::filesystem::directory_iterator(ALLOT_SOURCE_DIR "/tests/scheduler/scenarios")) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class SchedulerScenario : public ::testing::TestWithParam<std::string> {};

TEST_P(SchedulerScenario, PlanMatchesExpectedDecision) {
  Result<LoadedScenario> scenario = load_scheduler_scenario(GetParam());
  ASSERT_TRUE(scenario.ok()) << scenario.status().to_string();
  const Scheduler scheduler(scenario->policy, scenario->options);
  const Plan plan = scheduler.plan(scenario->snapshot);
  for (const std::string& error : check_expectations(*scenario, plan)) {
    ADD_FAILURE() << scenario->name << ": " << error;
  }
  // The same input always gives the same plan.
  const Plan again = scheduler.plan(scenario->snapshot);
  EXPECT_EQ(plan.admissions.size(), again.admissions.size());
  EXPECT_EQ(plan.preemptions.size(), again.preemptions.size());
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string stem = std::filesystem::path(info.param).stem().string();
  std::replace_if(
      stem.begin(), stem.end(), [](char c) { return !std::isalnum(c); }, '_');
  return stem;
}

INSTANTIATE_TEST_SUITE_P(Scenarios, SchedulerScenario, ::testing::ValuesIn(scenario_files()),
                         test_name);

}  // namespace
}  // namespace allot::testing
