// /metrics of a real allotd (issue 14, item 4): `promtool check metrics`
// accepts its text; a real Prometheus (the ctest fixture `prometheus`,
// scripts/prometheus.sh) scrapes it with a bearer token, and a PromQL query
// through Prometheus' HTTP API returns the usage GET /api/v1/top shows
// (what `allot top` prints); no token is 401, as on every route.
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <httplib.h>
#include <sys/wait.h>

#include "allotd_test.h"
#include "api/rfc3339.h"
#include "shell_command.h"

namespace allot::server_test {
namespace {

std::string prometheus_dir() {
  const char* dir = std::getenv("ALLOT_TEST_PROMETHEUS_DIR");
  return dir != nullptr ? dir : "";
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path + ".new");
  out << text;
  out.close();
  std::rename((path + ".new").c_str(), path.c_str());
}

class MetricsScrapeTest : public AllotdTest {
 protected:
  void SetUp() override {
    AllotdTest::SetUp();
    if (HasFatalFailure()) return;
    apply(kTestPolicy);
    apply(
        "apiVersion: allot/v1\nkind: ResourceFlavor\nmetadata: {name: gpu}\n"
        "spec: {price: {currency: USD, gpuHour: 2.5}}\n");
  }

  // The GPU usage of `team` as GET /api/v1/top shows it.
  std::string top_gpu_usage(const std::string& team) {
    const Reply top = api_.get("/api/v1/top");
    EXPECT_EQ(top.status, 200) << top.describe();
    for (const auto& row : top.json["teams"]) {
      if (row["team"] == team && row["resource"] == "gpu") return row["usage"];
    }
    return "";
  }
};

TEST_F(MetricsScrapeTest, PromtoolAcceptsTheTextOfALiveAllotd) {
  submit("research", "train", {.script = "exec sleep 1000", .gpus = 2, .pods = 1});
  wait_phase("research", "train", "Running");
  const Reply metrics = api_.get("/metrics");
  ASSERT_EQ(metrics.status, 200) << metrics.describe();
  EXPECT_EQ(metrics.header("Content-Type"), "text/plain; version=0.0.4; charset=utf-8");
  EXPECT_NE(metrics.body.find("allot_team_usage{team=\"research\",cohort=\"org\",flavor=\"gpu\","
                              "resource=\"gpu\"} 2\n"),
            std::string::npos)
      << metrics.body;
  EXPECT_NE(metrics.body.find("allot_http_requests_total{route=\"/api/v1/namespaces/*/workloads"),
            std::string::npos);
  EXPECT_NE(metrics.body.find("allot_node_healthy{node=\"node-0\""), std::string::npos);
  const std::string path = temp_file("metrics.txt");
  write_file(path, metrics.body);
  const auto [status, output] = run_shell("promtool check metrics < " + path);
  EXPECT_EQ(status, 0) << output;
  EXPECT_EQ(output, "") << "promtool's lint findings";

  const Reply anonymous = ApiHttp(allotd_, "").get("/metrics");
  EXPECT_EQ(anonymous.status, 401) << anonymous.describe();
}

TEST_F(MetricsScrapeTest, APromQLQueryThroughARealPrometheusReturnsWhatTopShows) {
  const std::string dir = prometheus_dir();
  ASSERT_FALSE(dir.empty()) << "ALLOT_TEST_PROMETHEUS_DIR is unset (ctest fixture prometheus)";
  std::string url;
  std::ifstream(dir + "/url") >> url;
  ASSERT_TRUE(url.starts_with("http://127.0.0.1:")) << url;
  submit("research", "train", {.script = "exec sleep 1000", .gpus = 3, .pods = 1});
  wait_phase("research", "train", "Running");
  ASSERT_EQ(top_gpu_usage("research"), "3");

  write_file(dir + "/token", allotd_.admin_token());
  write_file(dir + "/targets.json", R"([{"targets": ["127.0.0.1:)" +
                                        std::to_string(allotd_.port()) +
                                        R"("], "labels": {"instance": "allotd-test"}}])");
  httplib::Client prometheus(url);
  const std::string query =
      "/api/v1/query?query=" +
      httplib::detail::encode_query_param(
          R"(allot_team_usage{instance="allotd-test",team="research",resource="gpu"})");
  nlohmann::json answer;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    const auto reply = prometheus.Get(query);
    if (reply && reply->status == 200) {
      answer = nlohmann::json::parse(reply->body, nullptr, false);
      if (answer.is_object() && !answer["data"]["result"].empty()) break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));  // Prometheus' own pace
  }
  write_file(dir + "/targets.json", "[]");
  ASSERT_FALSE(answer["data"]["result"].empty()) << answer.dump();
  const auto& sample = answer["data"]["result"][0];
  EXPECT_EQ(sample["metric"]["flavor"], "gpu");
  EXPECT_EQ(sample["metric"]["cohort"], "org");
  EXPECT_EQ(sample["value"][1].get<std::string>(), top_gpu_usage("research"));
}

// allotd's local backend reading GPU utilisation through a fake NVML
// (tests/backends/local/fake_nvml.cc: four GPUs, each busy 25% of the
// time, 1 GiB of 80 in use): the pod's two GPUs are research's, the mean
// over them 0.25; promtool accepts the text with the GPU families.
class GpuMetricsScrapeTest : public MetricsScrapeTest {
 protected:
  void SetUp() override {
    const std::string file = temp_file("fake-nvml.txt");
    std::string gpus;
    for (int i = 0; i < 4; ++i) {
      gpus += "GPU-fake-" + std::to_string(i) + " 25 1073741824 85899345920 Fake GPU\n";
    }
    write_file(file, gpus);
    ::setenv("ALLOT_FAKE_NVML_FILE", file.c_str(), 1);  // allotd inherits it
    MetricsScrapeTest::SetUp();
  }
  void TearDown() override {
    MetricsScrapeTest::TearDown();
    ::unsetenv("ALLOT_FAKE_NVML_FILE");
  }
  // NVML read every 100 ms, so that the ledger gets utilisation intervals soon.
  std::vector<std::string> allotd_flags() override {
    return {"--nvml-library", ALLOT_FAKE_NVML, "--gpu-sample-interval", "100ms"};
  }
};

TEST_F(GpuMetricsScrapeTest, MeasuredGpusAreAttributedToThePodsTeamAndPassPromtool) {
  submit("research", "train", {.script = "exec sleep 1000", .gpus = 2, .pods = 1});
  wait_phase("research", "train", "Running");
  const Reply metrics = api_.get("/metrics");
  ASSERT_EQ(metrics.status, 200) << metrics.describe();
  EXPECT_NE(metrics.body.find("\nallot_team_gpu_utilization_ratio{team=\"research\"} 0.25\n"),
            std::string::npos)
      << metrics.body;
  size_t held = 0;
  size_t unheld = 0;
  for (size_t at = 0;
       (at = metrics.body.find("\nallot_gpu_utilization_ratio{", at)) != std::string::npos; ++at) {
    const std::string line = metrics.body.substr(at + 1, metrics.body.find('\n', at + 1) - at - 1);
    EXPECT_TRUE(line.ends_with("} 0.25")) << line;
    if (line.find("team=\"research\"") != std::string::npos) ++held;
    if (line.find("team=\"\"") != std::string::npos) ++unheld;
  }
  EXPECT_EQ(held, 2u) << metrics.body;
  EXPECT_EQ(unheld, 2u) << metrics.body;
  EXPECT_NE(metrics.body.find("allot_gpu_memory_used_bytes{"), std::string::npos);
  EXPECT_NE(metrics.body.find("\nallot_team_gpus_allocated_idle{team=\"research\","),
            std::string::npos)
      << metrics.body;  // busy 25 %: none idle
  const std::string path = temp_file("metrics.txt");
  write_file(path, metrics.body);
  const auto [status, output] = run_shell("promtool check metrics < " + path);
  EXPECT_EQ(status, 0) << output;
  EXPECT_EQ(output, "") << "promtool's lint findings";
}

// Efficiency in the usage report (issue 14, item 2): the fake NVML's GPUs are
// 25 % busy, so the research row's measured GPU utilisation is exactly 0.25
// once the ledger holds intervals of the pod's two GPUs; the prod team, which
// ran nothing, has no row; the JSON's totals carry the same figures.
TEST_F(GpuMetricsScrapeTest, TheUsageReportShowsTheMeasuredUtilisationOfTheHeldGpus) {
  const std::string from =
      format_rfc3339(Timestamp::from_millis(std::chrono::duration_cast<std::chrono::milliseconds>(
                                                std::chrono::system_clock::now().time_since_epoch())
                                                .count()));
  submit("research", "train", {.script = "exec sleep 1000", .gpus = 2, .pods = 1});
  wait_phase("research", "train", "Running");
  const std::string query = "/api/v1/reports/usage?from=" + from + "&to=2100-01-01T00:00:00Z";
  Reply report;
  const bool measured = eventually([&] {
    report = api_.get(query + "&by=team");
    return report.status == 200 && report.json["totals"]["measuredGpuHours"].is_number() &&
           report.json["totals"]["measuredGpuHours"].get<double>() * 3600 >= 0.5;
  });
  ASSERT_TRUE(measured) << report.describe();
  ASSERT_EQ(report.json["rows"].size(), 1u) << report.json.dump();
  const nlohmann::json& row = report.json["rows"][0];
  EXPECT_EQ(row["team"], "research");
  EXPECT_DOUBLE_EQ(row["gpuUtilization"].get<double>(), 0.25);
  EXPECT_LE(row["measuredGpuHours"].get<double>(), row["gpuHours"].get<double>());
  EXPECT_DOUBLE_EQ(report.json["totals"]["gpuUtilization"].get<double>(), 0.25);
  const Reply by_workload = api_.get(query + "&by=workload");
  ASSERT_EQ(by_workload.status, 200) << by_workload.describe();
  EXPECT_DOUBLE_EQ(by_workload.json["rows"][0]["gpuUtilization"].get<double>(), 0.25);
}

}  // namespace
}  // namespace allot::server_test
