#include "cli/output/trace_sweep_output.h"

#include <cstdio>
#include <map>
#include <utility>

#include "cli/output/number_text.h"
#include "cli/output/text_table.h"
#include "cli/output/trace_output.h"

namespace allot::cli {
namespace {

// Lines of unfit jobs listed in a warning; the rest are counted.
constexpr size_t kListed = 10;

std::string factor_text(double factor) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", factor);
  return text;
}

std::string lines_text(const std::vector<int64_t>& lines) {
  std::string text;
  for (size_t i = 0; i < lines.size() && i < kListed; ++i) {
    text += (i == 0 ? "" : ", ") + std::to_string(lines[i]);
  }
  if (lines.size() > kListed) {
    text += ", ... (" + std::to_string(lines.size() - kListed) + " more)";
  }
  return text;
}

std::string unfit_text(const UnfitJob& job) {
  return "line " + std::to_string(job.line) + " (" + job.namespace_name + ", " +
         std::to_string(job.gpus) + " GPUs > " +
         (job.reason == UnfitReason::kTeamLimit ? "team limit " : "cluster ") +
         std::to_string(job.limit) + ")";
}

std::string policy_warnings(const std::string& where, const PolicyPreparation& policy) {
  std::string out;
  if (!policy.unfit.empty()) {
    out += "warning: " + where + ": " + std::to_string(policy.unfit.size()) +
           " job(s) can never start: ";
    for (size_t i = 0; i < policy.unfit.size() && i < kListed; ++i) {
      out += (i == 0 ? "" : ", ") + unfit_text(policy.unfit[i]);
    }
    out += policy.unfit.size() > kListed
               ? ", ... (" + std::to_string(policy.unfit.size() - kListed) + " more)\n"
               : "\n";
  }
  for (const UnfitJob& job : policy.unfit) {
    if (!job.blocked_lines.empty()) {
      out += "warning: " + where + ": under StrictFIFO line " + std::to_string(job.line) +
             " blocks " + std::to_string(job.blocked_lines.size()) + " later job(s) of " +
             job.namespace_name + ": lines " + lines_text(job.blocked_lines) + "\n";
    }
  }
  if (!policy.skipped.unknown_team.empty()) {
    out += "warning: " + where +
           ": skipped jobs of teams the policy lacks: " + unknown_teams_text(policy.skipped) + "\n";
  }
  return out;
}

nlohmann::json point_json(const SweepPoint& point) {
  nlohmann::json json = trace_comparison_json(point.comparison);
  json["load_factor"] = point.load_factor;
  json["capacity_factor"] = point.capacity_factor;
  return json;
}

std::string sweep_rows(const StudySweep& sweep) {
  TextTable table({"LOAD", "CAPACITY", "POLICY", "JOBS", "MEAN QUEUE", "P95 QUEUE", "MEAN JCT",
                   "UTILIZATION", "BORROWED GPU-H", "COMPLIANCE", "VIOLATED R/B/F",
                   "NEVER ADMITTED", "CYCLE", "RUNTIME"});
  for (const SweepPoint& point : sweep.points) {
    for (const PolicyRun& run : point.comparison.runs) {
      const TraceMetrics& overall = run.summary.overall;
      table.add_row({factor_text(point.load_factor), factor_text(point.capacity_factor), run.name,
                     std::to_string(overall.jobs), seconds_text(overall.mean_queue_s),
                     seconds_text(overall.p95_queue_s), seconds_text(overall.mean_jct_s),
                     percent_text(overall.utilization), fixed(overall.borrowed_gpu_hours, 1),
                     percent_text(overall.guarantee_compliance),
                     std::to_string(overall.violated_cycles_reclaimable) + "/" +
                         std::to_string(overall.violated_cycles_beyond_bound) + "/" +
                         std::to_string(overall.violated_cycles_fragmented),
                     std::to_string(run.never_admitted), run.cycle.to_string(),
                     fixed(run.runtime_s, 3) + "s"});
    }
  }
  return table.render();
}

// Mean queueing delay per team, one row per team, one column per point and policy.
std::string sweep_teams(const StudySweep& sweep) {
  std::vector<std::string> header = {"TEAM (MEAN QUEUE)"};
  std::vector<std::string> teams;
  std::map<std::string, std::vector<std::string>> cells;
  for (const SweepPoint& point : sweep.points) {
    for (const PolicyRun& run : point.comparison.runs) {
      header.push_back(run.name + " x" + factor_text(point.load_factor) + " c" +
                       factor_text(point.capacity_factor));
      for (const TeamTraceMetrics& team : run.summary.teams) {
        std::vector<std::string>& row = cells[team.team];
        if (row.empty()) {
          teams.push_back(team.team);
        }
        row.resize(header.size() - 2);
        row.push_back(seconds_text(team.metrics.mean_queue_s));
      }
    }
  }
  TextTable table(header);
  for (const std::string& team : teams) {
    std::vector<std::string> row = {team};
    row.insert(row.end(), cells[team].begin(), cells[team].end());
    row.resize(header.size());
    table.add_row(std::move(row));
  }
  return table.render();
}

}  // namespace

nlohmann::json trace_sweep_json(const StudySweep& sweep) {
  if (sweep.points.size() == 1) {
    return point_json(sweep.points.front());
  }
  nlohmann::json points = nlohmann::json::array();
  for (const SweepPoint& point : sweep.points) {
    points.push_back(point_json(point));
  }
  return {{"sweep", std::move(points)}};
}

std::string trace_sweep_table(const StudySweep& sweep) {
  if (sweep.points.size() == 1) {
    const SweepPoint& point = sweep.points.front();
    return "Load factor " + factor_text(point.load_factor) + ", capacity factor " +
           factor_text(point.capacity_factor) + "\n" + trace_comparison_table(point.comparison);
  }
  const int64_t jobs = sweep.points.empty() ? 0 : sweep.points.front().comparison.jobs;
  return "Trace: " + std::to_string(jobs) + " jobs, " + std::to_string(sweep.points.size()) +
         " points\n\n" + sweep_rows(sweep) + "\n" + sweep_teams(sweep);
}

std::string trace_warnings_text(double capacity_factor,
                                const std::vector<PolicyPreparation>& policies) {
  std::string out;
  for (const PolicyPreparation& policy : policies) {
    const std::string where = capacity_factor == 1.0 ? policy.name
                                                     : policy.name + " (capacity factor " +
                                                           factor_text(capacity_factor) + ")";
    out += policy_warnings(where, policy);
  }
  return out;
}

}  // namespace allot::cli
