// replay_metrics: what `allot-bench replay` reports, from hand-made observations.
#include "bench/replay_metrics.h"

#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace allot::bench {
namespace {

constexpr int64_t kStart = 1'764'480'000'000;  // 2025-11-30T05:20:00Z

nlohmann::json workload(const std::string& team, const std::string& priority_class,
                        const std::string& created, const std::string& first_admitted,
                        const std::string& finished, int restarts = 0) {
  const auto time_or_null = [](const std::string& at) {
    return at.empty() ? nlohmann::json(nullptr) : nlohmann::json("2025-11-30T05:20:" + at + "Z");
  };
  return {{"spec", {{"priorityClass", priority_class}}},
          {"status",
           {{"team", team},
            {"createdAt", time_or_null(created)},
            {"firstAdmittedAt", time_or_null(first_admitted)},
            {"finishedAt", time_or_null(finished)},
            {"restarts", restarts}}}};
}

TEST(ReplayMetrics, MeasuresWallTimeAdmissionDelaysAndPreemptions) {
  const std::vector<nlohmann::json> workloads = {
      workload("a", "small", "01.000", "01.500", "03.000"),
      workload("a", "small", "02.000", "04.500", "06.000", 2),
      workload("b", "large", "02.000", "02.250", "11.000", 1),
  };
  const Result<ReplayMetrics> metrics = replay_metrics(workloads, {}, kStart);
  ASSERT_TRUE(metrics.ok()) << metrics.status().to_string();
  EXPECT_EQ(metrics->workloads, 3);
  EXPECT_EQ(metrics->finished, 3);
  EXPECT_DOUBLE_EQ(metrics->wall_s, 10.0);  // 01.000 to 11.000
  EXPECT_EQ(metrics->preemptions, 3);
  EXPECT_DOUBLE_EQ(metrics->class_tta_s.at("small"), 1.5);  // (0.5 + 2.5) / 2
  EXPECT_DOUBLE_EQ(metrics->class_tta_s.at("large"), 0.25);
}

TEST(ReplayMetrics, HeldBeyondRuntimeIsTheMedianOfRunsNotRestarted) {
  // name, admittedAt, finishedAt, restarts; every runtime 200 ms but "other"'s.
  const std::vector<std::tuple<std::string, std::string, std::string, int>> runs = {
      {"w1", "01.000", "01.230", 0},     // held 30 ms beyond its work
      {"w2", "02.000", "02.205", 0},     // 5 ms
      {"w3", "03.000", "04.100", 0},     // 900 ms
      {"w4", "04.000", "09.000", 1},     // restarted: left out
      {"w5", "05.000", "", 0},           // not finished: left out
      {"other", "06.000", "07.000", 0},  // not among the runtimes: left out
  };
  std::vector<nlohmann::json> workloads;
  std::map<std::string, int64_t> runtimes;
  for (const auto& [name, admitted, finished, restarts] : runs) {
    nlohmann::json item = workload("a", "x", "00.500", admitted, finished, restarts);
    item["metadata"] = {{"name", name}, {"namespace", "team-a"}};
    item["status"]["admittedAt"] = "2025-11-30T05:20:" + admitted + "Z";
    workloads.push_back(std::move(item));
    if (name != "other") runtimes["team-a/" + name] = 200;
  }
  const Result<std::optional<int64_t>> held = median_held_beyond_runtime_ms(workloads, runtimes);
  ASSERT_TRUE(held.ok()) << held.status().to_string();
  EXPECT_EQ(*held, 30);  // the median of 5, 30 and 900

  const Result<std::optional<int64_t>> none = median_held_beyond_runtime_ms(workloads, {});
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->has_value());

  nlohmann::json cancelled = workloads[0];  // finished without ever being admitted
  cancelled["metadata"]["name"] = "cancelled";
  cancelled["status"].erase("admittedAt");
  workloads.push_back(cancelled);
  runtimes["team-a/cancelled"] = 200;
  const Result<std::optional<int64_t>> with_cancelled =
      median_held_beyond_runtime_ms(workloads, runtimes);
  ASSERT_TRUE(with_cancelled.ok()) << with_cancelled.status().to_string();
  EXPECT_EQ(*with_cancelled, 30);  // left out: the same median

  workloads[0]["status"]["admittedAt"] = "yesterday";
  EXPECT_FALSE(median_held_beyond_runtime_ms(workloads, runtimes).ok());
}

TEST(ReplayMetrics, HeldBeyondRuntimeByClassIsEachClassesMedian) {
  // name, class, admittedAt, finishedAt, restarts; every runtime 200 ms.
  const std::vector<std::tuple<std::string, std::string, std::string, std::string, int>> runs = {
      {"s1", "small", "01.000", "02.900", 0},  // 1,700 ms beyond its work
      {"s2", "small", "02.000", "04.100", 0},  // 1,900 ms
      {"s3", "small", "03.000", "05.300", 0},  // 2,100 ms
      {"s4", "small", "04.000", "09.000", 2},  // restarted: left out
      {"l1", "large", "05.000", "05.280", 0},  // 80 ms
      {"n1", "", "06.000", "06.250", 0},       // 50 ms, no class
  };
  std::vector<nlohmann::json> workloads;
  std::map<std::string, int64_t> runtimes;
  for (const auto& [name, priority_class, admitted, finished, restarts] : runs) {
    nlohmann::json item = workload("a", priority_class, "00.500", admitted, finished, restarts);
    if (priority_class.empty()) item["spec"].erase("priorityClass");  // as allotd leaves it out
    item["metadata"] = {{"name", name}, {"namespace", "team-a"}};
    item["status"]["admittedAt"] = "2025-11-30T05:20:" + admitted + "Z";
    workloads.push_back(std::move(item));
    runtimes["team-a/" + name] = 200;
  }
  const Result<std::map<std::string, int64_t>> by_class =
      held_beyond_runtime_ms_by_class(workloads, runtimes);
  ASSERT_TRUE(by_class.ok()) << by_class.status().to_string();
  EXPECT_EQ(*by_class, (std::map<std::string, int64_t>{{"", 50}, {"large", 80}, {"small", 1900}}));
  // The median of all runs is the most numerous class's.
  const Result<std::optional<int64_t>> all = median_held_beyond_runtime_ms(workloads, runtimes);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, 1700);  // of 50, 80, 1700, 1900, 2100

  const Result<std::map<std::string, int64_t>> none =
      held_beyond_runtime_ms_by_class(workloads, {});
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  workloads[0]["status"]["finishedAt"] = "later";
  EXPECT_FALSE(held_beyond_runtime_ms_by_class(workloads, runtimes).ok());
}

TEST(ReplayMetrics, TeamUsageAveragesSamplesWhileTheTeamHadWork) {
  const std::vector<nlohmann::json> workloads = {
      workload("a", "x", "01.000", "01.000", "03.000"),
      workload("b", "x", "01.000", "01.000", "09.000"),
  };
  const std::vector<UsageSample> samples = {
      {0.5, {{"a", 9.0}}},  // before anyone submitted: ignored
      {1.5, {{"a", 1.0}, {"b", 0.5}}},
      {2.5, {{"a", 0.5}, {"b", 0.5}}},
      {5.0, {{"b", 1.0}}},  // a is done: ignored for a
  };
  const Result<ReplayMetrics> metrics = replay_metrics(workloads, samples, kStart);
  ASSERT_TRUE(metrics.ok());
  EXPECT_DOUBLE_EQ(metrics->team_usage.at("a"), 0.75);
  EXPECT_DOUBLE_EQ(metrics->team_usage.at("b"), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(metrics->lowest_team_usage, 2.0 / 3.0);
}

TEST(ReplayMetrics, UnfinishedWorkIsCountedButEndsNoWindow) {
  const std::vector<nlohmann::json> workloads = {
      workload("a", "x", "01.000", "", ""),
      workload("a", "x", "01.000", "02.000", "04.000"),
  };
  const Result<ReplayMetrics> metrics = replay_metrics(workloads, {}, kStart);
  ASSERT_TRUE(metrics.ok());
  EXPECT_EQ(metrics->finished, 1);
  EXPECT_DOUBLE_EQ(metrics->wall_s, 3.0);
  EXPECT_DOUBLE_EQ(metrics->class_tta_s.at("x"), 1.0);
}

TEST(ReplayMetrics, MalformedTimesAreErrors) {
  nlohmann::json bad = workload("a", "x", "01.000", "", "");
  bad["status"]["createdAt"] = "yesterday";
  EXPECT_FALSE(replay_metrics({bad}, {}, kStart).ok());
}

}  // namespace
}  // namespace allot::bench
