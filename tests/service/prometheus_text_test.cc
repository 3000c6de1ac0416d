// The Prometheus text of a scripted metrics snapshot (service/metrics,
// docs/metrics.md): HELP and TYPE before each family, base units (CPU cores,
// bytes), cumulative histogram buckets with +Inf, _sum and _count, escaped
// label values, borrowed and lent only where nonzero, and the cluster's
// families only when the snapshot has them.
#include "service/metrics/prometheus_text.h"

#include <algorithm>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "model/metric_catalog.h"
#include "service/metrics/activity_metrics.h"
#include "service/metrics/exposition_points.h"
#include "service/metrics/histogram.h"

namespace allot {
namespace {

QuotaUsageRow row(std::string team, std::string flavor, Resource resource, int64_t nominal,
                  int64_t usage, int64_t borrowed, int64_t lent) {
  QuotaUsageRow r;
  r.team = std::move(team);
  r.cohort = "org";
  r.flavor = std::move(flavor);
  r.resource = resource;
  r.nominal = nominal;
  r.usage = usage;
  r.borrowed = borrowed;
  r.lent = lent;
  r.pending = 2;
  r.admitted = 1;
  return r;
}

MetricsSnapshot scripted() {
  MetricsSnapshot s;
  s.quotas = {row("prod", "h100", Resource::kGpu, 8, 12, 4, 0),
              row("prod", "h100", Resource::kCpu, 64000, 1500, 0, 0),
              row("prod", "h100", Resource::kMemory, int64_t{256} << 30, int64_t{1} << 30, 0, 0)};
  Histogram wait(std::vector<double>{1, 60});
  wait.observe(0.5);
  wait.observe(30);
  wait.observe(120);
  s.teams.admission_wait["prod"] = wait;
  s.teams.preemptions[{"prod", "ReclaimWithinCohort"}] = 3;
  s.costs = {{"prod", "h100", "EUR", 12.5}};
  s.budgets = {{"prod-monthly", "prod", "", "EUR", 50, 12.5},
               {"vision-q1", "", "vision", "EUR", 100, 25}};
  return s;
}

bool has_line(const std::string& text, const std::string& line) {
  return text.find("\n" + line + "\n") != std::string::npos || text.starts_with(line + "\n");
}

TEST(PrometheusText, QuotaFamiliesInBaseUnitsWithHelpAndType) {
  const std::string text = render_prometheus(scripted());
  EXPECT_TRUE(text.starts_with("# HELP allot_team_nominal_quota "));
  EXPECT_TRUE(has_line(text, "# TYPE allot_team_nominal_quota gauge"));
  EXPECT_TRUE(has_line(
      text,
      R"(allot_team_nominal_quota{team="prod",cohort="org",flavor="h100",resource="gpu"} 8)"));
  EXPECT_TRUE(has_line(
      text,
      R"(allot_team_nominal_quota{team="prod",cohort="org",flavor="h100",resource="cpu"} 64)"));
  EXPECT_TRUE(has_line(
      text, R"(allot_team_usage{team="prod",cohort="org",flavor="h100",resource="cpu"} 1.5)"));
  EXPECT_TRUE(has_line(
      text,
      R"(allot_team_nominal_quota{team="prod",cohort="org",flavor="h100",resource="memory"} 274877906944)"));
  EXPECT_TRUE(has_line(
      text, R"(allot_team_borrowed{team="prod",cohort="org",flavor="h100",resource="gpu"} 4)"));
  // Zero borrowed and every zero lent are left out.
  EXPECT_EQ(
      text.find(R"(allot_team_borrowed{team="prod",cohort="org",flavor="h100",resource="cpu")"),
      std::string::npos);
  EXPECT_EQ(text.find("allot_team_lent{"), std::string::npos);
  EXPECT_TRUE(has_line(text, "# TYPE allot_team_lent gauge"));
  // One sample per team, not per row.
  EXPECT_TRUE(has_line(text, R"(allot_team_pending_workloads{team="prod"} 2)"));
  EXPECT_EQ(text.find(R"(allot_team_pending_workloads{team="prod"})"),
            text.rfind(R"(allot_team_pending_workloads{team="prod"})"));
  EXPECT_TRUE(has_line(text, R"(allot_team_admitted_workloads{team="prod"} 1)"));
}

TEST(PrometheusText, HistogramBucketsAreCumulativeWithInfSumAndCount) {
  const std::string text = render_prometheus(scripted());
  EXPECT_TRUE(has_line(text, "# TYPE allot_admission_wait_seconds histogram"));
  EXPECT_TRUE(has_line(text, R"(allot_admission_wait_seconds_bucket{team="prod",le="1"} 1)"));
  EXPECT_TRUE(has_line(text, R"(allot_admission_wait_seconds_bucket{team="prod",le="60"} 2)"));
  EXPECT_TRUE(has_line(text, R"(allot_admission_wait_seconds_bucket{team="prod",le="+Inf"} 3)"));
  EXPECT_TRUE(has_line(text, R"(allot_admission_wait_seconds_sum{team="prod"} 150.5)"));
  EXPECT_TRUE(has_line(text, R"(allot_admission_wait_seconds_count{team="prod"} 3)"));
  EXPECT_TRUE(has_line(text, "# TYPE allot_preemptions_total counter"));
  EXPECT_TRUE(
      has_line(text, R"(allot_preemptions_total{team="prod",reason="ReclaimWithinCohort"} 3)"));
  EXPECT_TRUE(has_line(
      text, R"(allot_team_cost_month_to_date{team="prod",flavor="h100",currency="EUR"} 12.5)"));
  EXPECT_TRUE(has_line(
      text, R"(allot_budget_spent{budget="prod-monthly",team="prod",currency="EUR"} 12.5)"));
  EXPECT_TRUE(has_line(
      text, R"(allot_budget_amount{budget="prod-monthly",team="prod",currency="EUR"} 50)"));
  EXPECT_TRUE(has_line(text, R"(allot_budget_used_ratio{budget="prod-monthly",team="prod"} 0.25)"));
  // A project budget's series carry `project` instead of `team`.
  EXPECT_TRUE(has_line(
      text, R"(allot_budget_spent{budget="vision-q1",project="vision",currency="EUR"} 25)"));
  EXPECT_TRUE(has_line(
      text, R"(allot_budget_amount{budget="vision-q1",project="vision",currency="EUR"} 100)"));
  EXPECT_TRUE(
      has_line(text, R"(allot_budget_used_ratio{budget="vision-q1",project="vision"} 0.25)"));
}

TEST(PrometheusText, ClusterFamiliesOnlyWithTheClusterPart) {
  MetricsSnapshot s = scripted();
  EXPECT_EQ(render_prometheus(s).find("allot_node_"), std::string::npos);
  EXPECT_EQ(render_prometheus(s).find("allot_http_"), std::string::npos);
  EXPECT_EQ(render_prometheus(s).find("allot_scheduler_"), std::string::npos);

  ActivityMetrics activity;
  activity.record_cycle(Duration::millis(20), 3);
  activity.record_request({"/api/v1/namespaces/*/workloads", "GET", 200}, 0.002);
  activity.record_request({"/api/v1/namespaces/*/workloads", "GET", 200}, 0.2);
  activity.record_request({"none", "GET", 404}, 0.0001);
  ClusterMetrics cluster;
  cluster.nodes = {{"gpu-0", "h100", "pool-a", false, true, ResourceVector(8, 64000, 1024), {}}};
  cluster.activity = activity.cluster();
  s.cluster = cluster;
  const std::string text = render_prometheus(s);
  EXPECT_TRUE(has_line(text, R"(allot_node_healthy{node="gpu-0",flavor="h100",pool="pool-a"} 0)"));
  EXPECT_TRUE(has_line(text, R"(allot_node_cordoned{node="gpu-0",flavor="h100",pool="pool-a"} 1)"));
  EXPECT_TRUE(
      has_line(text, R"(allot_node_capacity{node="gpu-0",flavor="h100",resource="cpu"} 64)"));
  EXPECT_TRUE(
      has_line(text, R"(allot_node_allocated{node="gpu-0",flavor="h100",resource="gpu"} 0)"));
  EXPECT_TRUE(has_line(text, R"(allot_scheduler_cycle_duration_seconds_bucket{le="0.025"} 1)"));
  EXPECT_TRUE(has_line(text, R"(allot_scheduler_cycle_duration_seconds_bucket{le="0.01"} 0)"));
  EXPECT_TRUE(has_line(text, "allot_scheduler_cycle_duration_seconds_count 1"));
  EXPECT_TRUE(has_line(text, R"(allot_scheduler_admissions_per_cycle_bucket{le="5"} 1)"));
  EXPECT_TRUE(has_line(text, "allot_scheduler_admissions_per_cycle_sum 3"));
  EXPECT_TRUE(has_line(
      text,
      R"(allot_http_requests_total{route="/api/v1/namespaces/*/workloads",method="GET",code="200"} 2)"));
  EXPECT_TRUE(
      has_line(text, R"(allot_http_requests_total{route="none",method="GET",code="404"} 1)"));
  EXPECT_TRUE(has_line(
      text,
      R"(allot_http_request_duration_seconds_bucket{route="/api/v1/namespaces/*/workloads",method="GET",le="0.0025"} 1)"));
  EXPECT_TRUE(has_line(
      text,
      R"(allot_http_request_duration_seconds_count{route="/api/v1/namespaces/*/workloads",method="GET"} 2)"));
}

TEST(PrometheusText, LabelValuesAreEscaped) {
  MetricsSnapshot s;
  s.costs = {{"a\"b\\c\nd", "h100", "EUR", 1}};
  EXPECT_TRUE(has_line(
      render_prometheus(s),
      R"(allot_team_cost_month_to_date{team="a\"b\\c\nd",flavor="h100",currency="EUR"} 1)"));
}

TEST(PrometheusText, EveryFamilyOnceAndTheSameTextForTheSameSnapshot) {
  const MetricsSnapshot s = scripted();
  const std::string text = render_prometheus(s);
  EXPECT_EQ(text, render_prometheus(s));
  for (const char* family :
       {"allot_team_usage", "allot_admission_wait_seconds", "allot_team_cost_month_to_date"}) {
    const std::string type = std::string("# TYPE ") + family + " ";
    EXPECT_NE(text.find(type), std::string::npos) << family;
    EXPECT_EQ(text.find(type), text.rfind(type)) << family;
  }
}

TEST(Histogram, ABoundIsInclusive) {
  Histogram h(std::vector<double>{1, 2});
  h.observe(1);
  h.observe(2.5);
  EXPECT_EQ(h.counts(), (std::vector<uint64_t>{1, 0, 1}));
  EXPECT_DOUBLE_EQ(h.sum(), 3.5);
  EXPECT_EQ(h.count(), 2u);
}

}  // namespace
}  // namespace allot

namespace allot {
namespace {

TEST(PrometheusText, BorrowedRatioIsBorrowedOverNominalWhereBothAreNonzero) {
  const std::string text = render_prometheus(scripted());
  EXPECT_TRUE(has_line(
      text,
      R"(allot_team_borrowed_ratio{team="prod",cohort="org",flavor="h100",resource="gpu"} 0.5)"));
  EXPECT_EQ(
      text.find(
          R"(allot_team_borrowed_ratio{team="prod",cohort="org",flavor="h100",resource="cpu")"),
      std::string::npos);
}

// What a Signal may name (model/metric_catalog.h) is what /metrics writes.
TEST(PrometheusText, EveryRenderedFamilyIsInTheSignalsCatalogAndBack) {
  MetricsSnapshot s = scripted();
  s.cluster = ClusterMetrics{{NodeSample{"n1", "h100", "pool", true, false, {}, {}}}, {}};
  s.cluster->activity.requests[{"/x", "GET", 200}] = 1;
  s.cluster->activity.request_duration[{"/x", "GET"}] = Histogram(std::vector<double>{1});
  s.gpus.push_back(GpuUsageSample{"n1", 0, "GPU-a", "prod", WorkloadId(1), 0, 0.5, 1, 2, {}});
  const std::string text = render_prometheus(s);
  std::set<std::string> rendered;
  size_t at = 0;
  while ((at = text.find("# TYPE ", at)) != std::string::npos) {
    at += 7;
    const std::string name = text.substr(at, text.find(' ', at) - at);
    rendered.insert(name);
    const MetricFamily* family = find_metric_family(name);
    ASSERT_NE(family, nullptr) << name << " is rendered but not in metric_catalog.cc";
    const std::string type =
        text.substr(text.find(' ', at) + 1, text.find('\n', at) - text.find(' ', at) - 1);
    EXPECT_EQ(type, family->type == MetricType::kGauge     ? "gauge"
                    : family->type == MetricType::kCounter ? "counter"
                                                           : "histogram")
        << name;
  }
  for (const MetricFamily& family : metric_families()) {
    EXPECT_TRUE(rendered.contains(std::string(family.name))) << family.name << " is never rendered";
  }
}

TEST(ExpositionPoints, ReadsBackWhatTheRendererWritesSortedAndFiltered) {
  MetricsSnapshot s = scripted();
  s.quotas[0].team = "we\"ird\\team";
  const std::string text = render_prometheus(s);
  const std::vector<MetricPoint> points =
      exposition_points(text, {"allot_team_borrowed", "allot_admission_wait_seconds_bucket"});
  ASSERT_FALSE(points.empty());
  EXPECT_EQ(
      points[0],
      (MetricPoint{
          "allot_team_borrowed",
          {{"cohort", "org"}, {"flavor", "h100"}, {"resource", "gpu"}, {"team", "we\"ird\\team"}},
          4}));
  size_t buckets = 0;
  for (const MetricPoint& point : points) {
    if (point.name == "allot_admission_wait_seconds_bucket") ++buckets;
  }
  EXPECT_EQ(buckets, 3u);  // 1, 60, +Inf
  size_t samples = 0;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    if (text[start] != '#') ++samples;
    start = end + 1;
  }
  EXPECT_EQ(exposition_points(text, {}).size(), samples);  // every sample line
}

}  // namespace
}  // namespace allot
