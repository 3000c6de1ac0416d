#include "cli/output/html_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <utility>
#include <vector>

#include "cli/output/number_text.h"
#include "cli/output/progress_bar.h"
#include "cli/output/svg_chart.h"

namespace allot::cli {
namespace {

constexpr size_t kMaxPoints = 500;
constexpr double kSecondsPerDay = 86'400.0;

// "-" for a figure that does not exist (no job of a kind).
std::string figure(double value, int decimals) {
  return std::isfinite(value) ? fixed(value, decimals) : "-";
}

using Cell = std::function<std::string(const PolicyRun&)>;

std::string summary_table(const PolicyComparison& comparison) {
  const std::vector<std::pair<std::string, Cell>> rows = {
      {"jobs", [](const PolicyRun& r) { return std::to_string(r.summary.overall.jobs); }},
      {"finished", [](const PolicyRun& r) { return std::to_string(r.summary.overall.finished); }},
      {"skipped jobs", [](const PolicyRun& r) { return std::to_string(r.skipped.total()); }},
      {"never admitted", [](const PolicyRun& r) { return std::to_string(r.never_admitted); }},
      {"mean queueing delay (s)",
       [](const PolicyRun& r) { return figure(r.summary.overall.mean_queue_s, 1); }},
      {"median queueing delay (s)",
       [](const PolicyRun& r) { return figure(r.summary.overall.median_queue_s, 1); }},
      {"p95 queueing delay (s)",
       [](const PolicyRun& r) { return figure(r.summary.overall.p95_queue_s, 1); }},
      {"max queueing delay (s)",
       [](const PolicyRun& r) { return figure(r.summary.overall.max_queue_s, 1); }},
      {"mean JCT (s)", [](const PolicyRun& r) { return figure(r.summary.overall.mean_jct_s, 1); }},
      {"GPU utilization (%)",
       [](const PolicyRun& r) { return figure(100 * r.summary.overall.utilization, 1); }},
      {"borrowed GPU-hours",
       [](const PolicyRun& r) { return figure(r.summary.overall.borrowed_gpu_hours, 1); }},
      {"preemptions",
       [](const PolicyRun& r) { return std::to_string(r.summary.overall.preemptions); }},
      {"guarantee compliance (%)",
       [](const PolicyRun& r) { return figure(100 * r.summary.overall.guarantee_compliance, 2); }},
      {"runtime, real (s)", [](const PolicyRun& r) { return figure(r.runtime_s, 2); }},
  };
  std::string out = "<table>\n<tr><th>metric</th>";
  for (const PolicyRun& run : comparison.runs) {
    out += "<th>" + escape_xml(run.name) + "</th>";
  }
  out += "</tr>\n";
  for (const auto& [label, cell] : rows) {
    out += "<tr><td>" + escape_xml(label) + "</td>";
    for (const PolicyRun& run : comparison.runs) {
      out += "<td class=\"n\">" + cell(run) + "</td>";
    }
    out += "</tr>\n";
  }
  return out + "</table>\n";
}

// (delay, fraction of jobs admitted within it) at up to kMaxPoints ranks.
std::vector<std::pair<double, double>> cdf_points(const std::vector<double>& sorted) {
  std::vector<std::pair<double, double>> points;
  const size_t n = sorted.size();
  if (n == 0) {
    return points;
  }
  const size_t steps = std::min(n, kMaxPoints);
  for (size_t i = 1; i <= steps; ++i) {
    const size_t rank = std::max<size_t>(1, i * n / steps);  // 1-based
    points.emplace_back(sorted[rank - 1], static_cast<double>(rank) / static_cast<double>(n));
  }
  return points;
}

std::string delay_cdf(const PolicyComparison& comparison) {
  ChartSpec spec;
  spec.title = "Queueing delay, CDF";
  spec.x_label = "queueing delay (seconds, log scale; under 1 s drawn at 1 s)";
  spec.y_label = "fraction of jobs";
  spec.log_x = true;
  spec.y_max = 1.0;
  spec.width = 900;
  spec.height = 380;
  for (size_t i = 0; i < comparison.runs.size(); ++i) {
    const PolicyRun& run = comparison.runs[i];
    spec.series.push_back({run.name, chart_color(i), cdf_points(run.summary.queue_delays_s)});
  }
  return render_line_chart(spec);
}

std::vector<std::pair<double, double>> usage_points(const std::vector<UsagePoint>& series,
                                                    double origin_s) {
  std::vector<std::pair<double, double>> points;
  const size_t stride = (series.size() + kMaxPoints - 1) / kMaxPoints;
  for (size_t i = 0; i < series.size(); i += std::max<size_t>(stride, 1)) {
    points.emplace_back((series[i].t_s - origin_s) / kSecondsPerDay, series[i].used);
  }
  return points;
}

// The earliest time of any series: the charts share one time axis.
double time_origin(const PolicyComparison& comparison) {
  double origin = INFINITY;
  for (const PolicyRun& run : comparison.runs) {
    for (const TeamTraceMetrics& team : run.summary.teams) {
      if (!team.usage_series.empty()) origin = std::min(origin, team.usage_series.front().t_s);
    }
  }
  return std::isfinite(origin) ? origin : 0.0;
}

std::string team_chart(const PolicyComparison& comparison, size_t team, double origin) {
  const TeamTraceMetrics& first = comparison.runs.front().summary.teams[team];
  ChartSpec spec;
  spec.title = "Team " + first.team + ": GPUs used (bucket means) vs nominal " +
               std::to_string(first.nominal);
  spec.x_label = "days since the first arrival";
  spec.width = 540;
  spec.y_label = "GPUs";
  double end = 0;
  for (size_t i = 0; i < comparison.runs.size(); ++i) {
    const TeamTraceMetrics& metrics = comparison.runs[i].summary.teams[team];
    spec.series.push_back(
        {comparison.runs[i].name, chart_color(i), usage_points(metrics.usage_series, origin)});
    if (!spec.series.back().points.empty())
      end = std::max(end, spec.series.back().points.back().first);
  }
  spec.series.push_back(
      {"nominal",
       "#222222",
       {{0.0, static_cast<double>(first.nominal)}, {end, static_cast<double>(first.nominal)}},
       true});
  return render_line_chart(spec);
}

std::string team_charts(const PolicyComparison& comparison) {
  std::string out;
  const double origin = time_origin(comparison);
  const size_t teams = comparison.runs.front().summary.teams.size();
  for (size_t team = 0; team < teams; ++team) {
    const bool same_teams =
        std::all_of(comparison.runs.begin(), comparison.runs.end(), [&](const PolicyRun& run) {
          return run.summary.teams.size() == teams &&
                 run.summary.teams[team].team == comparison.runs.front().summary.teams[team].team;
        });
    if (!same_teams || comparison.runs.front().summary.teams[team].metrics.jobs == 0) {
      continue;  // policies with other teams are compared in the table only
    }
    out += "<div class=\"chart\">" + team_chart(comparison, team, origin) + "</div>\n";
  }
  return out;
}

constexpr const char* kStyle =
    "body{font-family:sans-serif;margin:24px;color:#222}"
    "table{border-collapse:collapse;margin-bottom:24px}"
    "th,td{border:1px solid #ccc;padding:4px 10px}td.n{text-align:right}"
    "th{background:#f0f0f0}.chart{display:inline-block;margin:0 12px 12px 0}";

}  // namespace

std::string trace_report_html(const PolicyComparison& comparison) {
  std::string out = "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">\n";
  out += "<title>allot trace replay</title>\n<style>";
  out += kStyle;
  out += "</style></head><body>\n<h1>Trace replay: " + with_thousands(comparison.jobs) +
         " jobs</h1>\n";
  out += "<h2>Summary</h2>\n" + summary_table(comparison);
  if (!comparison.runs.empty()) {
    out +=
        "<h2>Queueing delay</h2>\n<p>Earlier policies are drawn wider: where lines coincide, "
        "the first policy shows at the edges.</p>\n<div class=\"chart\">" +
        delay_cdf(comparison) + "</div>\n";
    out += "<h2>GPUs used per team</h2>\n" + team_charts(comparison);
  }
  return out + "</body></html>\n";
}

}  // namespace allot::cli
