// The pieces of the trace replay's HTML report (html_report.h,
// report_assets.h, number_text.h): thousands separators, per-team cells that
// name their figure, and the charts' specs the page's script draws (the
// chart code itself, coinciding lines drawn once with both names and log
// axes, is web/src/charts: web/tests/charts_test.mjs, and the page in
// Chromium: web/tests/report_test.mjs).
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/output/html_report.h"
#include "cli/output/number_text.h"
#include "cli/output/report_assets.h"

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
  EXPECT_EQ(html.find("<script src"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  // the page and the charts' data, without the chart code
  EXPECT_EQ(html.substr(0, html.rfind("<script>")).find("nan"), std::string::npos);
}

// The specs between <script type="application/json" id="report-charts"> and
// its </script>.
nlohmann::json chart_specs(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"report-charts\">";
  const size_t from = html.find(open);
  if (from == std::string::npos) return nullptr;
  const size_t begin = from + open.size();
  return nlohmann::json::parse(html.substr(begin, html.find("</script>", begin) - begin));
}

TEST(ReportFormat, EachChartSlotHasItsSpecWithEverySeries) {
  StudySweep sweep;
  SweepPoint point;
  point.comparison.jobs = 12345;
  point.comparison.runs = {run_of("hard", 10), run_of("borrow", 20)};
  sweep.points.push_back(point);
  const std::string html = trace_report_html(sweep);
  EXPECT_NE(html.find("<div data-chart=\"0\">"), std::string::npos) << html;
  EXPECT_NE(html.find("<div data-chart=\"1\">"), std::string::npos);
  const nlohmann::json specs = chart_specs(html);
  ASSERT_TRUE(specs.is_object()) << html;
  ASSERT_EQ(specs["charts"].size(), 2U);  // the tail, and alpha's GPUs over time
  const nlohmann::json& tail = specs["charts"][0];
  EXPECT_TRUE(tail["logX"].get<bool>());
  EXPECT_TRUE(tail["logY"].get<bool>());
  ASSERT_EQ(tail["series"].size(), 2U);
  EXPECT_EQ(tail["series"][0]["name"], "hard");
  EXPECT_EQ(tail["series"][1]["name"], "borrow");
  // delays 0, 2 and 4000 s: every job waited at least 0, a third 4000 s
  EXPECT_EQ(tail["series"][0]["points"].front(), nlohmann::json::parse("[0, 1]"));
  EXPECT_EQ(tail["series"][0]["points"].back()[0], 4000);
  const nlohmann::json& team = specs["charts"][1];
  ASSERT_EQ(team["series"].size(), 3U);
  EXPECT_EQ(team["series"][2]["name"], "nominal");
  EXPECT_TRUE(team["series"][2]["dashed"].get<bool>());
  EXPECT_EQ(team["series"][2]["points"], nlohmann::json::parse("[[0, 8], [0.00115741, 8]]"));
}

TEST(ReportFormat, ChartDataCannotEndItsScriptElement) {
  StudySweep sweep;
  SweepPoint point;
  point.comparison.jobs = 3;
  PolicyRun run = run_of("</script><b>x", 1);
  run.summary.teams[0].team = "<!--a";
  point.comparison.runs = {run};
  sweep.points.push_back(point);
  const std::string html = trace_report_html(sweep);
  EXPECT_EQ(html.find("</script><b>"), std::string::npos);
  EXPECT_EQ(html.find("<!--a"), std::string::npos);
  const nlohmann::json specs = chart_specs(html);
  ASSERT_TRUE(specs.is_object()) << html;
  EXPECT_EQ(specs["charts"][0]["series"][0]["name"], "</script><b>x");
  EXPECT_EQ(specs["charts"][1]["title"], "Team <!--a: GPUs used (bucket means) vs nominal 8");
}

// The page's own script and style are inline, and its policy allows only
// them: nothing is fetched.
TEST(ReportFormat, TheChartScriptIsInlineAndTheOnlyOneAllowed) {
  const ReportAssets assets = report_assets();
  StudySweep sweep;
  sweep.points.emplace_back();
  const std::string html = trace_report_html(sweep);
  EXPECT_NE(html.find("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'"),
            std::string::npos);
  if (assets.script.empty()) {
    GTEST_SKIP() << "built with ALLOT_WEB_UI=OFF: the report has no script";
  }
  EXPECT_NE(html.find("<script>" + std::string(assets.script) + "</script>"), std::string::npos);
  EXPECT_NE(html.find("<style>" + std::string(assets.style) + "</style>"), std::string::npos);
  EXPECT_NE(html.find("script-src 'sha256-" + std::string(assets.script_sha256) + "'"),
            std::string::npos);
  EXPECT_NE(html.find("style-src 'sha256-" + std::string(assets.style_sha256) + "'"),
            std::string::npos);
  EXPECT_EQ(assets.script_sha256.size(), 44U);                        // 32 bytes in base64
  EXPECT_NE(assets.script.find("report-charts"), std::string::npos);  // the report's entry
}

}  // namespace
}  // namespace allot::cli
