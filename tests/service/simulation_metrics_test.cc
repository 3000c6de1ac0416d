#include "service/simulation/simulation_metrics.h"

#include <gtest/gtest.h>

namespace allot {
namespace {

Timestamp at_s(int64_t s) { return Timestamp::from_millis(s * 1000); }

TracedWorkload traced(std::string name, size_t team, int64_t arrived,
                      std::optional<int64_t> admitted, std::optional<int64_t> finished,
                      std::string priority_class = "normal") {
  TracedWorkload workload;
  workload.name = std::move(name);
  workload.namespace_name = "ns";
  workload.priority_class = std::move(priority_class);
  workload.team = team;
  workload.arrived_at = at_s(arrived);
  if (admitted) workload.first_admitted_at = at_s(*admitted);
  if (finished) workload.finished_at = at_s(*finished);
  return workload;
}

// Team 0 (nominal 4) runs 8 units for [0, 10) and 2 units for [20, 30);
// team 1 (nominal 4) has one job that never runs.
SimulationTrace two_team_trace() {
  SimulationTrace trace;
  trace.primary_resource = "gpu";
  trace.capacity = 8;
  trace.teams = {{"busy", 4}, {"starved", 4}};
  trace.class_order = {"normal", "unused"};
  trace.workloads = {traced("big", 0, 0, 0, 10), traced("small", 0, 15, 20, 30),
                     traced("stuck", 1, 5, std::nullopt, std::nullopt, "other")};
  trace.segments = {{0, at_s(0), at_s(10), 8}, {1, at_s(20), at_s(30), 2}};
  trace.end = at_s(40);
  trace.admissions = 2;
  return trace;
}

TEST(SimulationMetrics, WallTimeRunsFromFirstArrivalToLastCompletion) {
  const SimulationReport report = summarize_simulation(two_team_trace());
  EXPECT_DOUBLE_EQ(report.wall_s, 30.0);
  EXPECT_DOUBLE_EQ(report.utilization, (8.0 * 10 + 2.0 * 10) / (8.0 * 30));
  EXPECT_EQ(report.admissions, 2);
}

TEST(SimulationMetrics, TeamUsageAveragesOverTheTimeTheTeamHadWork) {
  const SimulationReport report = summarize_simulation(two_team_trace());
  const TeamMetrics& busy = report.teams[0];
  // Active over [0, 10) and [15, 30): 25s; allocated 100 unit-seconds; nominal 4.
  EXPECT_DOUBLE_EQ(busy.usage, 100.0 / 4.0 / 25.0);
  EXPECT_EQ(report.teams[1].usage, 0.0);
  EXPECT_EQ(report.teams[1].jobs, 1);
}

TEST(SimulationMetrics, BorrowedShareIsTheAllocationAboveNominal) {
  const SimulationReport report = summarize_simulation(two_team_trace());
  // 8 units for 10s with nominal 4: 40 of the 100 unit-seconds were borrowed.
  EXPECT_DOUBLE_EQ(report.teams[0].borrowed_share, 40.0 / 100.0);
}

TEST(SimulationMetrics, BorrowedHoursAreTheResourceTimeAboveNominal) {
  const SimulationReport report = summarize_simulation(two_team_trace());
  // 4 units above nominal for 10s: 40 unit-seconds.
  EXPECT_DOUBLE_EQ(report.teams[0].borrowed_hours, 40.0 / 3600.0);
  EXPECT_EQ(report.teams[1].borrowed_hours, 0.0);
}

TEST(SimulationMetrics, WaitsCountOnlyAdmittedWorkloads) {
  const SimulationReport report = summarize_simulation(two_team_trace());
  EXPECT_DOUBLE_EQ(report.teams[0].mean_wait_s, 2.5);
  EXPECT_DOUBLE_EQ(report.teams[0].p95_wait_s, 5.0);
  EXPECT_DOUBLE_EQ(report.teams[0].max_wait_s, 5.0);
  EXPECT_EQ(report.teams[1].mean_wait_s, 0.0);
}

TEST(SimulationMetrics, P95IsTheNearestRank) {
  SimulationTrace trace;
  trace.teams = {{"t", 1}};
  for (int i = 1; i <= 20; ++i) {
    trace.workloads.push_back(traced("w" + std::to_string(i), 0, 0, i, i + 1));
  }
  const SimulationReport report = summarize_simulation(trace);
  EXPECT_DOUBLE_EQ(report.teams[0].p95_wait_s, 19.0);  // rank ceil(0.95 * 20) = 19
  EXPECT_DOUBLE_EQ(report.teams[0].max_wait_s, 20.0);
}

TEST(SimulationMetrics, ClassesFollowThePolicyOrderThenOthers) {
  const SimulationReport report = summarize_simulation(two_team_trace());
  ASSERT_EQ(report.classes.size(), 3u);
  EXPECT_EQ(report.classes[0].name, "normal");
  EXPECT_EQ(report.classes[0].jobs, 2);
  EXPECT_DOUBLE_EQ(report.classes[0].tta_mean_s, 2.5);
  EXPECT_EQ(report.classes[1].name, "unused");
  EXPECT_EQ(report.classes[1].jobs, 0);
  EXPECT_EQ(report.classes[2].name, "other");
  EXPECT_EQ(report.classes[2].tta_mean_s, 0.0);
}

TEST(SimulationMetrics, UnfinishedWorkloadsArePendingAndListed) {
  const SimulationReport report = summarize_simulation(two_team_trace());
  EXPECT_EQ(report.never_admitted, std::vector<std::string>{"ns/stuck"});
  EXPECT_EQ(report.workloads[2].state, "Pending");
  EXPECT_EQ(report.workloads[0].state, "Succeeded");
  EXPECT_EQ(report.workloads[1].admitted_s, 20.0);
}

}  // namespace
}  // namespace allot
