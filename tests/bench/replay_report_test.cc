// replay_report: what `allot-bench replay` prints, allotd next to the simulation.
#include "bench/replay_report.h"

#include <map>
#include <optional>
#include <string>
#include <utility>

#include <gtest/gtest.h>

namespace allot::bench {
namespace {

SimulationReport simulation() {
  SimulationReport report;
  report.wall_s = 66.3;
  report.preemptions = 3;
  report.workloads.resize(4);
  report.teams.resize(2);
  report.teams[0].name = "a";
  report.teams[0].usage = 0.75;
  report.teams[1].name = "b";
  report.teams[1].usage = 0.5;
  report.classes.resize(2);
  report.classes[0].name = "large";
  report.classes[0].tta_mean_s = 0.25;
  report.classes[1].name = "small";
  report.classes[1].tta_mean_s = 12.5;
  return report;
}

ReplayMetrics real() {
  ReplayMetrics metrics;
  metrics.workloads = 4;
  metrics.finished = 4;
  metrics.wall_s = 96.5;
  metrics.preemptions = 7;
  metrics.class_tta_s = {{"small", 24.0}};
  metrics.lowest_team_usage = 0.875;
  return metrics;
}

ReplaySimulations scenario_only() {
  ReplaySimulations simulations;
  simulations.scenario = simulation();
  return simulations;
}

ReplaySimulations with_latency(const SimulationReport& at_latency, int64_t latency_ms) {
  ReplaySimulations simulations = scenario_only();
  simulations.at_start_latency = at_latency;
  simulations.start_latency_ms = latency_ms;
  return simulations;
}

ReplaySimulations with_class_latencies(ReplaySimulations simulations,
                                       const SimulationReport& at_class,
                                       std::map<std::string, int64_t> latencies_ms) {
  simulations.at_class_latencies = at_class;
  simulations.class_latencies_ms = std::move(latencies_ms);
  return simulations;
}

TEST(ReplayReport, JsonPutsAllotdNextToTheSimulation) {
  const nlohmann::json report = replay_report_json(real(), scenario_only());
  EXPECT_EQ(report["allotd"], nlohmann::json({{"workloads", 4},
                                              {"finished", 4},
                                              {"wall_s", 96.5},
                                              {"lowest_team_usage", 0.875},
                                              {"preemptions", 7}}));
  EXPECT_EQ(
      report["simulation"],
      nlohmann::json(
          {{"workloads", 4}, {"wall_s", 66.3}, {"lowest_team_usage", 0.5}, {"preemptions", 3}}));
  // A class allotd never admitted reads 0.
  EXPECT_EQ(report["classes"]["large"]["allotd_tta_mean_s"], 0);
  EXPECT_EQ(report["classes"]["large"]["simulation_tta_mean_s"], 0.25);
  EXPECT_EQ(report["classes"]["small"]["allotd_tta_mean_s"], 24.0);
  EXPECT_TRUE(report["held_beyond_runtime_ms"].is_null());
  EXPECT_TRUE(report["simulation_at_start_latency"].is_null());
}

TEST(ReplayReport, TheSimulationAtAllotdsStartLatencyStandsBesideTheScenarios) {
  ReplayMetrics measured = real();
  measured.held_beyond_runtime_ms = 12;
  SimulationReport at_latency = simulation();
  at_latency.wall_s = 79.0;
  at_latency.preemptions = 1122;
  const nlohmann::json report = replay_report_json(measured, with_latency(at_latency, 12));
  EXPECT_EQ(report["held_beyond_runtime_ms"], 12);
  EXPECT_EQ(report["simulation_at_start_latency"], nlohmann::json({{"workloads", 4},
                                                                   {"wall_s", 79.0},
                                                                   {"lowest_team_usage", 0.5},
                                                                   {"preemptions", 1122},
                                                                   {"start_latency_ms", 12}}));
  EXPECT_EQ(report["simulation"]["preemptions"], 3);
  EXPECT_EQ(replay_report_table(report),
            "                                allotd  simulation   sim@latency\n"
            "workloads                            4           4             4\n"
            "wall_s                            96.5        66.3          79.0\n"
            "lowest_team_usage                0.875       0.500         0.500\n"
            "preemptions                          7           3          1122\n"
            "held_beyond_runtime_ms              12                        12\n"
            "tta_mean_s large                 0.000       0.250         0.250\n"
            "tta_mean_s small                  24.0        12.5          12.5\n");
}

TEST(ReplayReport, TheSimulationAtEachClasssHeldTimeIsAFourthColumn) {
  ReplayMetrics measured = real();
  measured.held_beyond_runtime_ms = 1900;
  measured.class_held_beyond_runtime_ms = {{"large", 80}, {"small", 1900}};
  SimulationReport at_latency = simulation();
  at_latency.wall_s = 94.0;
  at_latency.preemptions = 0;
  at_latency.classes[1].tta_mean_s = 40.0;
  SimulationReport at_class = simulation();
  at_class.wall_s = 88.5;
  at_class.preemptions = 250;
  at_class.classes[0].tta_mean_s = 0.5;
  const nlohmann::json report =
      replay_report_json(measured, with_class_latencies(with_latency(at_latency, 1900), at_class,
                                                        {{"large", 80}, {"small", 1900}}));
  EXPECT_EQ(report["simulation_at_class_latencies"],
            nlohmann::json({{"workloads", 4},
                            {"wall_s", 88.5},
                            {"lowest_team_usage", 0.5},
                            {"preemptions", 250},
                            {"start_latency_ms", {{"large", 80}, {"small", 1900}}}}));
  EXPECT_EQ(report["classes"]["large"],
            nlohmann::json({{"allotd_tta_mean_s", 0},
                            {"simulation_tta_mean_s", 0.25},
                            {"allotd_held_beyond_runtime_ms", 80},
                            {"sim_at_latency_tta_mean_s", 0.25},
                            {"sim_at_class_latencies_tta_mean_s", 0.5}}));
  EXPECT_EQ(report["classes"]["small"]["sim_at_latency_tta_mean_s"], 40.0);
  EXPECT_EQ(replay_report_table(report),
            "                                   allotd  simulation   sim@latency     sim@class\n"
            "workloads                               4           4             4             4\n"
            "wall_s                               96.5        66.3          94.0          88.5\n"
            "lowest_team_usage                   0.875       0.500         0.500         0.500\n"
            "preemptions                             7           3             0           250\n"
            "held_beyond_runtime_ms               1900                      1900              \n"
            "tta_mean_s large                    0.000       0.250         0.250         0.500\n"
            "tta_mean_s small                     24.0        12.5          40.0          12.5\n"
            "held_beyond_runtime_ms large           80                                      80\n"
            "held_beyond_runtime_ms small         1900                                    1900\n");
}

TEST(ReplayReport, TableHasOneRowPerFigureAndClass) {
  EXPECT_EQ(replay_report_table(replay_report_json(real(), scenario_only())),
            "                                allotd  simulation\n"
            "workloads                            4           4\n"
            "wall_s                            96.5        66.3\n"
            "lowest_team_usage                0.875       0.500\n"
            "preemptions                          7           3\n"
            "tta_mean_s large                 0.000       0.250\n"
            "tta_mean_s small                  24.0        12.5\n");
}

}  // namespace
}  // namespace allot::bench
