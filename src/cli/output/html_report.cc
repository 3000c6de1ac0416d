#include "cli/output/html_report.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/markup_escape.h"
#include "cli/output/number_text.h"
#include "cli/output/progress_bar.h"
#include "cli/output/report_assets.h"

namespace allot::cli {
namespace {

constexpr size_t kReportMaxPoints = 500;
constexpr double kReportSecondsPerDay = 86'400.0;

std::string report_factor(double factor) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", factor);
  return text;
}

std::string report_money(const std::optional<double>& amount, const std::string& currency) {
  return amount ? grouped(*amount, 2) + " " + escape_markup(currency) : "-";
}

std::string report_cycle(const PolicyRun& run) {
  return run.cycle.to_string() + (run.cycle_overridden ? " (--cycle)" : " (policy)");
}

// A figure cell: its text, and the JSON key it shows (empty: no key).
struct FigureCell {
  std::string key;
  std::string text;
};

std::string figure_td(const FigureCell& cell, const std::string& attributes) {
  if (cell.key.empty()) {
    return "<td class=\"n\"" + attributes + ">" + cell.text + "</td>";
  }
  return "<td class=\"n\"" + attributes + " data-figure=\"" + cell.key + "\">" + cell.text +
         "</td>";
}

// A table that scrolls sideways in its own focusable region on a narrow screen.
std::string scroll_region(const std::string& label, const std::string& table) {
  return "<div class=\"scroll\" role=\"region\" tabindex=\"0\" aria-label=\"" +
         escape_markup(label) + "\">\n" + table + "</div>\n";
}

using SummaryCell = std::function<FigureCell(const PolicyRun&)>;

std::vector<std::pair<std::string, SummaryCell>> report_summary_rows() {
  const auto count = [](const char* key, int64_t TraceMetrics::*field) -> SummaryCell {
    return [=](const PolicyRun& r) {
      return FigureCell{key, with_thousands(r.summary.overall.*field)};
    };
  };
  const auto value = [](const char* key, double TraceMetrics::*field, double scale,
                        int decimals) -> SummaryCell {
    return [=](const PolicyRun& r) {
      return FigureCell{key, grouped(scale * (r.summary.overall.*field), decimals)};
    };
  };
  return {
      {"jobs", count("jobs", &TraceMetrics::jobs)},
      {"finished", count("finished", &TraceMetrics::finished)},
      {"skipped jobs",
       [](const PolicyRun& r) {
         return FigureCell{"", with_thousands(r.skipped.total())};
       }},
      {"unfit jobs (never fit)",
       [](const PolicyRun& r) {
         return FigureCell{"", with_thousands(static_cast<int64_t>(r.unfit.size()))};
       }},
      {"never admitted",
       [](const PolicyRun& r) {
         return FigureCell{"", with_thousands(r.never_admitted)};
       }},
      {"scheduling cycle",
       [](const PolicyRun& r) {
         return FigureCell{"", escape_markup(report_cycle(r))};
       }},
      {"mean queueing delay (s)", value("mean_queue_s", &TraceMetrics::mean_queue_s, 1, 1)},
      {"median queueing delay (s)", value("median_queue_s", &TraceMetrics::median_queue_s, 1, 1)},
      {"p95 queueing delay (s)", value("p95_queue_s", &TraceMetrics::p95_queue_s, 1, 1)},
      {"max queueing delay (s)", value("max_queue_s", &TraceMetrics::max_queue_s, 1, 1)},
      {"mean JCT (s)", value("mean_jct_s", &TraceMetrics::mean_jct_s, 1, 1)},
      {"utilization, GPU (%)", value("utilization", &TraceMetrics::utilization, 100, 1)},
      {"own GPU-hours", value("own_gpu_hours", &TraceMetrics::own_gpu_hours, 1, 1)},
      {"borrowed GPU-hours", value("borrowed_gpu_hours", &TraceMetrics::borrowed_gpu_hours, 1, 1)},
      {"idle GPU-hours", value("idle_gpu_hours", &TraceMetrics::idle_gpu_hours, 1, 1)},
      {"cost (own + borrowed)",
       [](const PolicyRun& r) {
         return FigureCell{"cost", report_money(r.summary.overall.cost, r.summary.currency)};
       }},
      {"idle cost",
       [](const PolicyRun& r) {
         return FigureCell{"idle_cost",
                           report_money(r.summary.overall.idle_cost, r.summary.currency)};
       }},
      {"preemptions", count("preemptions", &TraceMetrics::preemptions)},
      {"of which moves (consolidation)", count("moves", &TraceMetrics::moves)},
      {"GPU-hours lost (no checkpoint)",
       value("lost_gpu_hours", &TraceMetrics::lost_gpu_hours, 1, 1)},
      {"guarantee compliance (%)",
       value("guarantee_compliance", &TraceMetrics::guarantee_compliance, 100, 2)},
      {"runtime, real (s)",
       [](const PolicyRun& r) {
         return FigureCell{"", grouped(r.runtime_s, 2)};
       }},
  };
}

std::string report_summary_table(const PolicyComparison& comparison) {
  std::string out = "<table class=\"summary\">\n<thead><tr><th scope=\"col\">metric</th>";
  for (const PolicyRun& run : comparison.runs) {
    out += "<th scope=\"col\">" + escape_markup(run.name) + "</th>";
  }
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& [label, cell] : report_summary_rows()) {
    out += "<tr><th scope=\"row\">" + escape_markup(label) + "</th>";
    for (const PolicyRun& run : comparison.runs) {
      out += figure_td(cell(run), " data-policy=\"" + escape_markup(run.name) + "\"");
    }
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

// The per-team figures of the text output, in its order.
std::vector<FigureCell> report_team_cells(const PolicyRun& run, const TraceMetrics& metrics) {
  return {{"jobs", with_thousands(metrics.jobs)},
          {"mean_queue_s", grouped(metrics.mean_queue_s, 1)},
          {"guarantee_compliance", grouped(100 * metrics.guarantee_compliance, 1)},
          {"own_gpu_hours", grouped(metrics.own_gpu_hours, 1)},
          {"borrowed_gpu_hours", grouped(metrics.borrowed_gpu_hours, 1)},
          {"cost", report_money(metrics.cost, run.summary.currency)}};
}

// Teams in order of first appearance over the runs.
std::vector<std::string> report_team_names(const PolicyComparison& comparison) {
  std::vector<std::string> names;
  for (const PolicyRun& run : comparison.runs) {
    for (const TeamTraceMetrics& team : run.summary.teams) {
      if (std::find(names.begin(), names.end(), team.team) == names.end()) {
        names.push_back(team.team);
      }
    }
  }
  return names;
}

std::string report_team_table(const PolicyComparison& comparison) {
  std::string out =
      "<table class=\"teams\">\n<thead><tr><th scope=\"col\">team</th><th "
      "scope=\"col\">policy</th><th scope=\"col\">jobs</th><th scope=\"col\">mean queueing delay "
      "(s)</th><th scope=\"col\">guarantee compliance (%)</th><th scope=\"col\">own "
      "GPU-hours</th><th scope=\"col\">borrowed GPU-hours</th><th "
      "scope=\"col\">cost</th></tr></thead>\n";
  for (const std::string& name : report_team_names(comparison)) {
    std::vector<std::string> rows;
    for (const PolicyRun& run : comparison.runs) {
      const auto team = std::find_if(run.summary.teams.begin(), run.summary.teams.end(),
                                     [&](const TeamTraceMetrics& t) { return t.team == name; });
      if (team == run.summary.teams.end()) continue;
      const std::string attributes = " data-team=\"" + escape_markup(name) + "\" data-policy=\"" +
                                     escape_markup(run.name) + "\"";
      std::string row = "<td>" + escape_markup(run.name) + "</td>";
      for (const FigureCell& cell : report_team_cells(run, team->metrics)) {
        row += figure_td(cell, attributes);
      }
      rows.push_back(row + "</tr>\n");
    }
    out += "<tbody><tr><th scope=\"rowgroup\" rowspan=\"" + std::to_string(rows.size()) + "\">" +
           escape_markup(name) + "</th>";
    for (size_t i = 0; i < rows.size(); ++i) {
      out += (i == 0 ? "" : "<tr>") + rows[i];
    }
    out += "</tbody>\n";
  }
  return out + "</table>\n";
}

// (delay, share of jobs that waited at least that long): ranks spread
// evenly, and geometrically in the jobs still waiting so that the tail, down
// to the last job, keeps its shape.
std::vector<std::pair<double, double>> tail_points(const std::vector<double>& sorted) {
  std::vector<std::pair<double, double>> points;
  const size_t n = sorted.size();
  if (n == 0) {
    return points;
  }
  const size_t half = kReportMaxPoints / 2;
  std::vector<size_t> ranks;  // 0-based
  for (size_t k = 0; k <= half; ++k) {
    ranks.push_back(k * (n - 1) / half);
  }
  const double ratio = std::pow(static_cast<double>(n), 1.0 / static_cast<double>(half));
  for (double left = static_cast<double>(n); left >= 1.0; left /= ratio) {
    ranks.push_back(n - static_cast<size_t>(std::llround(left)));
  }
  ranks.push_back(n - 1);
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  for (const size_t rank : ranks) {
    points.emplace_back(sorted[rank], static_cast<double>(n - rank) / static_cast<double>(n));
  }
  return points;
}

// A number to 6 significant digits: the page's JSON stays short, and no chart
// can tell.
double chart_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return std::strtod(text, nullptr);
}

// A series of a chart spec (web/src/charts/line_chart.jsx): points whose
// coordinates are numbers, as [x, y].
nlohmann::json chart_series(const std::string& name,
                            const std::vector<std::pair<double, double>>& points,
                            bool dashed = false) {
  nlohmann::json drawn = nlohmann::json::array();
  for (const auto& [x, y] : points) {
    if (std::isfinite(x) && std::isfinite(y)) {
      drawn.push_back({chart_number(x), chart_number(y)});
    }
  }
  return {{"name", name}, {"points", std::move(drawn)}, {"dashed", dashed}};
}

// The page's charts: the script (report_assets.h) draws charts[K] into the
// page's <div data-chart="K">.
struct ReportCharts {
  nlohmann::json specs = nlohmann::json::array();

  // The placeholder of `spec` in the page, with its title until it is drawn.
  std::string slot(nlohmann::json spec) {
    const std::string title = spec["title"];
    specs.push_back(std::move(spec));
    return "<div data-chart=\"" + std::to_string(specs.size() - 1) + "\"><p class=\"hint\">" +
           escape_markup(title) + " (a chart, drawn by the page's script)</p></div>\n";
  }
};

std::string delay_tail(const PolicyComparison& comparison, ReportCharts& charts) {
  size_t most = 1;
  for (const PolicyRun& run : comparison.runs) {
    most = std::max(most, run.summary.queue_delays_s.size());
  }
  nlohmann::json spec = {
      {"title", "Queueing delay: share of jobs that waited at least x (log-log)"},
      {"xLabel", "queueing delay (seconds, log scale; under 1 s drawn at 1 s)"},
      {"yLabel", "share of jobs (log scale)"},
      {"logX", true},
      {"logXFloor", 1.0},
      {"logY", true},
      {"yMin",
       std::min(0.1, std::pow(10.0, std::floor(std::log10(1.0 / static_cast<double>(most)))))},
      {"yMax", 1.0},
      {"width", 900},
      {"height", 380},
      {"series", nlohmann::json::array()}};
  for (const PolicyRun& run : comparison.runs) {
    spec["series"].push_back(chart_series(run.name, tail_points(run.summary.queue_delays_s)));
  }
  return charts.slot(std::move(spec));
}

std::vector<std::pair<double, double>> usage_points(const std::vector<UsagePoint>& series,
                                                    double origin_s) {
  std::vector<std::pair<double, double>> points;
  const size_t stride = (series.size() + kReportMaxPoints - 1) / kReportMaxPoints;
  for (size_t i = 0; i < series.size(); i += std::max<size_t>(stride, 1)) {
    points.emplace_back((series[i].t_s - origin_s) / kReportSecondsPerDay, series[i].used);
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

std::string team_chart(const PolicyComparison& comparison, size_t team, double origin,
                       ReportCharts& charts) {
  const TeamTraceMetrics& first = comparison.runs.front().summary.teams[team];
  nlohmann::json spec = {{"title", "Team " + first.team + ": GPUs used (bucket means) vs nominal " +
                                       with_thousands(first.nominal)},
                         {"xLabel", "days since the first arrival"},
                         {"yLabel", "GPUs"},
                         {"width", 540},
                         {"height", 300},
                         {"series", nlohmann::json::array()}};
  double end = 0;
  for (const PolicyRun& run : comparison.runs) {
    const auto points = usage_points(run.summary.teams[team].usage_series, origin);
    spec["series"].push_back(chart_series(run.name, points));
    if (!points.empty()) end = std::max(end, points.back().first);
  }
  const auto nominal = static_cast<double>(first.nominal);
  spec["series"].push_back(chart_series("nominal", {{0.0, nominal}, {end, nominal}}, true));
  return charts.slot(std::move(spec));
}

std::string team_charts(const PolicyComparison& comparison, ReportCharts& charts) {
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
    out += team_chart(comparison, team, origin, charts);
  }
  return out;
}

std::string point_section(const SweepPoint& point, size_t index, ReportCharts& charts) {
  const PolicyComparison& comparison = point.comparison;
  const std::string name = "Load factor " + report_factor(point.load_factor) +
                           ", capacity factor " + report_factor(point.capacity_factor);
  const std::string id = "point-" + std::to_string(index);
  std::string out = "<section data-load=\"" + report_factor(point.load_factor) +
                    "\" data-capacity=\"" + report_factor(point.capacity_factor) +
                    "\" aria-labelledby=\"" + id + "\">\n<h2 id=\"" + id + "\">" +
                    escape_markup(name) + "</h2>\n";
  out += "<h3>Summary</h3>\n" + scroll_region(name + ": summary", report_summary_table(comparison));
  if (comparison.runs.empty()) {
    return out + "</section>\n";
  }
  out += "<h3>Per team</h3>\n" + scroll_region(name + ": per team", report_team_table(comparison));
  out += "<h3>Queueing delay</h3>\n" + delay_tail(comparison, charts);
  out += "<h3>GPUs used per team</h3>\n<div class=\"charts\">\n" + team_charts(comparison, charts) +
         "</div>\n";
  return out + "</section>\n";
}

// Only the page's own script and style sheet may run or apply; nothing is
// fetched.
std::string report_csp(const ReportAssets& assets) {
  std::string policy = "default-src 'none'";
  if (!assets.script.empty())
    policy += "; script-src 'sha256-" + std::string(assets.script_sha256) + "'";
  if (!assets.style.empty())
    policy += "; style-src 'sha256-" + std::string(assets.style_sha256) + "'";
  return "<meta http-equiv=\"Content-Security-Policy\" content=\"" + policy + "\">\n";
}

// The charts' data, as JSON no "<" of which can end its element.
std::string charts_data(const ReportCharts& charts) {
  const std::string json = nlohmann::json{{"charts", charts.specs}}.dump(
      -1, ' ', false, nlohmann::json::error_handler_t::replace);
  std::string out = "<script type=\"application/json\" id=\"report-charts\">";
  for (const char c : json) {
    out += c == '<' ? std::string("\\u003c") : std::string(1, c);
  }
  return out + "</script>\n";
}

}  // namespace

std::string trace_report_html(const StudySweep& sweep) {
  const ReportAssets assets = report_assets();
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n";
  out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out += report_csp(assets);
  out += "<title>allot trace replay</title>\n<style>";
  out += assets.style;
  const int64_t jobs = sweep.points.empty() ? 0 : sweep.points.front().comparison.jobs;
  out += "</style></head><body><main>\n<h1>Trace replay: " + with_thousands(jobs) + " jobs";
  if (sweep.points.size() > 1) {
    out += ", " + std::to_string(sweep.points.size()) + " load and capacity points";
  }
  out += "</h1>\n";
  if (assets.script.empty()) {
    out +=
        "<p class=\"hint\">This allot was built without its web part (ALLOT_WEB_UI=OFF): the "
        "report has its tables but no charts.</p>\n";
  }
  ReportCharts charts;
  for (size_t i = 0; i < sweep.points.size(); ++i) {
    out += point_section(sweep.points[i], i, charts);
  }
  out += "</main>\n" + charts_data(charts);
  if (!assets.script.empty()) {
    out += "<script>" + std::string(assets.script) + "</script>\n";
  }
  return out + "</body></html>\n";
}

}  // namespace allot::cli
