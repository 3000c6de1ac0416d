// The pieces of the trace replay's HTML report (html_report.h,
// svg_chart.h, number_text.h): thousands separators, coinciding lines drawn
// once with both names, a log y axis, and per-team cells that name their
// figure.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/output/html_report.h"
#include "cli/output/number_text.h"
#include "cli/output/svg_chart.h"

namespace allot::cli {
namespace {

size_t occurrences(const std::string& text, const std::string& needle) {
  size_t count = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) {
    ++count;
  }
  return count;
}

TEST(ReportFormat, GroupedPutsACommaBetweenThousands) {
  EXPECT_EQ(grouped(41868.34, 1), "41,868.3");
  EXPECT_EQ(grouped(999.96, 1), "1,000.0");
  EXPECT_EQ(grouped(1234567.0, 0), "1,234,567");
  EXPECT_EQ(grouped(-1234.5, 2), "-1,234.50");
  EXPECT_EQ(grouped(12.0, 1), "12.0");
  EXPECT_EQ(grouped(NAN, 1), "-");
  EXPECT_EQ(grouped(INFINITY, 1), "-");
}

TEST(ReportFormat, CoincidingSeriesAreOneLineNamingBoth) {
  const std::vector<std::pair<double, double>> same = {{1, 1}, {2, 0.5}};
  const std::vector<ChartSeries> merged = merge_coinciding({{"hard", "#111", same},
                                                            {"borrow", "#222", {{1, 1}, {3, 0.1}}},
                                                            {"fair", "#333", same},
                                                            {"nominal", "#444", same, true}});
  ASSERT_EQ(merged.size(), 3U);
  EXPECT_EQ(merged[0].name, "hard = fair");
  EXPECT_EQ(merged[0].color, "#111");
  EXPECT_EQ(merged[1].name, "borrow");
  EXPECT_EQ(merged[2].name, "nominal");  // dashed: another line
}

TEST(ReportFormat, ALogYChartHasItsLinesAndAnHtmlLegend) {
  ChartSpec spec;
  spec.title = "tail";
  spec.log_x = true;
  spec.log_y = true;
  spec.y_min = 0.001;
  spec.y_max = 1;
  spec.series = {{"a", "#111", {{0, 1}, {10, 0.5}, {1000, 0.001}}},
                 {"b", "#222", {{0, 1}, {10, 0.5}, {1000, 0.001}}},
                 {"c", "#333", {{5, 1}, {50, 0.0}}}};
  const std::string html = render_line_chart(spec);
  EXPECT_EQ(html.rfind("<figure class=\"chart\"", 0), 0U) << html.substr(0, 80);
  EXPECT_EQ(occurrences(html, "<polyline"), 2U);
  EXPECT_NE(html.find("<li data-series=\"a = b\">"), std::string::npos) << html;
  EXPECT_NE(html.find("<li data-series=\"c\">"), std::string::npos);
  EXPECT_NE(html.find(">0.001</text>"), std::string::npos);  // a log tick
  EXPECT_EQ(html.find("nan"), std::string::npos);
  EXPECT_EQ(html.find("inf"), std::string::npos);
}

PolicyRun run_of(const std::string& name, double alpha_mean_queue) {
  PolicyRun run;
  run.name = name;
  run.summary.overall.jobs = 12345;
  run.summary.queue_delays_s = {0, 2, 4000};
  TeamTraceMetrics alpha;
  alpha.team = "alpha";
  alpha.nominal = 8;
  alpha.metrics.jobs = 12345;
  alpha.metrics.mean_queue_s = alpha_mean_queue;
  alpha.metrics.guarantee_compliance = 0.998;
  alpha.usage_series = {{0, 1}, {100, 4}};
  run.summary.teams.push_back(alpha);
  return run;
}

TEST(ReportFormat, EverySweepPointHasItsPerTeamFigures) {
  StudySweep sweep;
  for (const double load : {1.0, 2.0}) {
    SweepPoint point;
    point.load_factor = load;
    point.comparison.jobs = 12345;
    point.comparison.runs = {run_of("hard", 41868.34 * load), run_of("borrow", 13.3)};
    sweep.points.push_back(point);
  }
  const std::string html = trace_report_html(sweep);
  EXPECT_EQ(occurrences(html, "<section data-load="), 2U);
  EXPECT_NE(html.find("<section data-load=\"2\" data-capacity=\"1\""), std::string::npos);
  EXPECT_NE(html.find("data-team=\"alpha\" data-policy=\"hard\" data-figure=\"mean_queue_s\">"
                      "41,868.3</td>"),
            std::string::npos)
      << html;
  EXPECT_NE(html.find("data-team=\"alpha\" data-policy=\"hard\" data-figure=\"mean_queue_s\">"
                      "83,736.7</td>"),
            std::string::npos);
  EXPECT_NE(html.find("data-figure=\"guarantee_compliance\">99.8</td>"), std::string::npos);
  EXPECT_NE(html.find("data-figure=\"jobs\">12,345</td>"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("nan"), std::string::npos);
}

}  // namespace
}  // namespace allot::cli
