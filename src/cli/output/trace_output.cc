#include "cli/output/trace_output.h"

#include <cstdio>
#include <functional>
#include <map>
#include <utility>

#include "cli/output/number_text.h"
#include "cli/output/text_table.h"

namespace allot::cli {
namespace {

nlohmann::json optional_json(const std::optional<double>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json metrics_json(const TraceMetrics& metrics) {
  return {{"jobs", metrics.jobs},
          {"finished", metrics.finished},
          {"mean_queue_s", metrics.mean_queue_s},
          {"median_queue_s", metrics.median_queue_s},
          {"p95_queue_s", metrics.p95_queue_s},
          {"max_queue_s", metrics.max_queue_s},
          {"mean_jct_s", metrics.mean_jct_s},
          {"utilization", metrics.utilization},
          {"borrowed_gpu_hours", metrics.borrowed_gpu_hours},
          {"own_gpu_hours", metrics.own_gpu_hours},
          {"idle_gpu_hours", metrics.idle_gpu_hours},
          {"cost", optional_json(metrics.cost)},
          {"borrowed_cost", optional_json(metrics.borrowed_cost)},
          {"idle_cost", optional_json(metrics.idle_cost)},
          {"preemptions", metrics.preemptions},
          {"moves", metrics.moves},
          {"lost_gpu_hours", metrics.lost_gpu_hours},
          {"guarantee_compliance", metrics.guarantee_compliance},
          {"violated_cycles_reclaimable", metrics.violated_cycles_reclaimable},
          {"violated_cycles_beyond_bound", metrics.violated_cycles_beyond_bound},
          {"violated_cycles_fragmented", metrics.violated_cycles_fragmented},
          {"longest_violation_s", metrics.longest_violation_s}};
}

nlohmann::json skipped_json(const SkippedJobs& skipped) {
  nlohmann::json unknown = nlohmann::json::object();
  for (const auto& [name, count] : skipped.unknown_team) {
    unknown[name] = count;
  }
  return {{"total", skipped.total()},
          {"zero_gpus", skipped.zero_gpus},
          {"zero_duration", skipped.zero_duration},
          {"unknown_team", std::move(unknown)}};
}

nlohmann::json unfit_json(const std::vector<UnfitJob>& unfit) {
  nlohmann::json jobs = nlohmann::json::array();
  for (const UnfitJob& job : unfit) {
    jobs.push_back({{"line", job.line},
                    {"namespace", job.namespace_name},
                    {"gpus", job.gpus},
                    {"limit", job.limit},
                    {"reason", job.reason == UnfitReason::kTeamLimit ? "team_limit" : "cluster"},
                    {"blocked_lines", job.blocked_lines}});
  }
  return jobs;
}

std::string cycle_text(const PolicyRun& run) {
  return run.cycle.to_string() + (run.cycle_overridden ? " (--cycle)" : " (policy)");
}

nlohmann::json run_json(const PolicyRun& run) {
  nlohmann::json teams = nlohmann::json::object();
  for (const TeamTraceMetrics& team : run.summary.teams) {
    teams[team.team] = metrics_json(team.metrics);
  }
  return {{"overall", metrics_json(run.summary.overall)},
          {"teams", std::move(teams)},
          {"skipped_jobs", skipped_json(run.skipped)},
          {"unfit_jobs", unfit_json(run.unfit)},
          {"gpu_hour_price", optional_json(run.summary.gpu_hour_price)},
          {"currency", run.summary.currency},
          {"cycle_s", run.cycle.secs()},
          {"cycle_source", run.cycle_overridden ? "override" : "policy"},
          {"never_admitted", run.never_admitted},
          {"cycles", run.cycles},
          {"runtime_s", run.runtime_s}};
}

// "1234.50 USD", or "-" when the policy has no price.
std::string money(const std::optional<double>& amount, const std::string& currency) {
  return amount ? fixed(*amount, 2) + " " + currency : "-";
}

using Cell = std::function<std::string(const PolicyRun&)>;

std::string overall_table(const PolicyComparison& comparison) {
  std::vector<std::string> header = {"POLICY"};
  for (const PolicyRun& run : comparison.runs) {
    header.push_back(run.name);
  }
  const std::vector<std::pair<std::string, Cell>> rows = {
      {"jobs", [](const PolicyRun& r) { return std::to_string(r.summary.overall.jobs); }},
      {"skipped jobs", [](const PolicyRun& r) { return std::to_string(r.skipped.total()); }},
      {"unfit jobs (never fit)", [](const PolicyRun& r) { return std::to_string(r.unfit.size()); }},
      {"never admitted", [](const PolicyRun& r) { return std::to_string(r.never_admitted); }},
      {"scheduling cycle", [](const PolicyRun& r) { return cycle_text(r); }},
      {"mean queueing delay",
       [](const PolicyRun& r) { return seconds_text(r.summary.overall.mean_queue_s); }},
      {"median queueing delay",
       [](const PolicyRun& r) { return seconds_text(r.summary.overall.median_queue_s); }},
      {"p95 queueing delay",
       [](const PolicyRun& r) { return seconds_text(r.summary.overall.p95_queue_s); }},
      {"max queueing delay",
       [](const PolicyRun& r) { return seconds_text(r.summary.overall.max_queue_s); }},
      {"mean JCT", [](const PolicyRun& r) { return seconds_text(r.summary.overall.mean_jct_s); }},
      {"utilization (gpu)",
       [](const PolicyRun& r) { return percent_text(r.summary.overall.utilization); }},
      {"own GPU-hours",
       [](const PolicyRun& r) { return fixed(r.summary.overall.own_gpu_hours, 1); }},
      {"borrowed GPU-hours",
       [](const PolicyRun& r) { return fixed(r.summary.overall.borrowed_gpu_hours, 1); }},
      {"idle GPU-hours",
       [](const PolicyRun& r) { return fixed(r.summary.overall.idle_gpu_hours, 1); }},
      {"cost (own + borrowed)",
       [](const PolicyRun& r) { return money(r.summary.overall.cost, r.summary.currency); }},
      {"idle cost",
       [](const PolicyRun& r) { return money(r.summary.overall.idle_cost, r.summary.currency); }},
      {"preemptions",
       [](const PolicyRun& r) { return std::to_string(r.summary.overall.preemptions); }},
      {"of which moves (consolidation)",
       [](const PolicyRun& r) { return std::to_string(r.summary.overall.moves); }},
      {"GPU-hours lost (no checkpoint)",
       [](const PolicyRun& r) { return fixed(r.summary.overall.lost_gpu_hours, 1); }},
      {"guarantee compliance",
       [](const PolicyRun& r) { return percent_text(r.summary.overall.guarantee_compliance); }},
      {"violated cycles: reclaimable / beyond bound / fragmented",
       [](const PolicyRun& r) {
         return std::to_string(r.summary.overall.violated_cycles_reclaimable) + " / " +
                std::to_string(r.summary.overall.violated_cycles_beyond_bound) + " / " +
                std::to_string(r.summary.overall.violated_cycles_fragmented);
       }},
      {"longest guarantee violation",
       [](const PolicyRun& r) { return seconds_text(r.summary.overall.longest_violation_s); }},
      {"runtime (real)", [](const PolicyRun& r) { return fixed(r.runtime_s, 3) + "s"; }},
  };
  TextTable table(header);
  for (const auto& [label, cell] : rows) {
    std::vector<std::string> row = {label};
    for (const PolicyRun& run : comparison.runs) {
      row.push_back(cell(run));
    }
    table.add_row(std::move(row));
  }
  return table.render();
}

// A table of one row per team and one column per policy, each cell made by
// `cell_of` from the team's figures in that policy's run.
using TeamCell = std::function<std::string(const PolicyRun&, const TeamTraceMetrics&)>;
std::string per_team_table(const PolicyComparison& comparison, const std::string& title,
                           const TeamCell& cell_of) {
  std::vector<std::string> header = {title};
  std::vector<std::string> teams;
  std::map<std::string, std::vector<std::string>> cells;
  for (const PolicyRun& run : comparison.runs) {
    header.push_back(run.name);
    for (const TeamTraceMetrics& team : run.summary.teams) {
      std::vector<std::string>& row = cells[team.team];
      if (row.empty()) {
        teams.push_back(team.team);
      }
      row.resize(header.size() - 2);
      row.push_back(cell_of(run, team));
    }
  }
  TextTable table(header);
  for (const std::string& team : teams) {
    std::vector<std::string> row = {team};
    row.insert(row.end(), cells[team].begin(), cells[team].end());
    table.add_row(std::move(row));
  }
  return table.render();
}

// Mean queueing delay per team, one column per policy.
std::string teams_table(const PolicyComparison& comparison) {
  return per_team_table(
      comparison, "TEAM (MEAN QUEUEING DELAY)", [](const PolicyRun&, const TeamTraceMetrics& team) {
        return seconds_text(team.metrics.mean_queue_s) + " (" + std::to_string(team.metrics.jobs) +
               " jobs, " + percent_text(team.metrics.guarantee_compliance) + " compliant)";
      });
}

// GPU-hours own / borrowed per team (and cost when priced), one column per policy.
std::string team_hours_table(const PolicyComparison& comparison) {
  return per_team_table(comparison, "TEAM (GPU-HOURS OWN / BORROWED, COST)",
                        [](const PolicyRun& run, const TeamTraceMetrics& team) {
                          std::string cell = fixed(team.metrics.own_gpu_hours, 1) + " / " +
                                             fixed(team.metrics.borrowed_gpu_hours, 1);
                          if (team.metrics.cost) {
                            cell += ", " + money(team.metrics.cost, run.summary.currency);
                          }
                          return cell;
                        });
}

}  // namespace

nlohmann::json trace_comparison_json(const PolicyComparison& comparison) {
  nlohmann::json policies = nlohmann::json::object();
  for (const PolicyRun& run : comparison.runs) {
    policies[run.name] = run_json(run);
  }
  return {{"jobs_read", comparison.jobs}, {"policies", std::move(policies)}};
}

std::string unknown_teams_text(const SkippedJobs& skipped) {
  std::string text;
  for (const auto& [name, count] : skipped.unknown_team) {
    text += (text.empty() ? "" : ", ") + name + " (" + std::to_string(count) + ")";
  }
  return text;
}

std::string trace_comparison_table(const PolicyComparison& comparison) {
  std::string out = "Trace: " + std::to_string(comparison.jobs) + " jobs\n\n";
  out += overall_table(comparison);
  out += "\n" + teams_table(comparison);
  out += "\n" + team_hours_table(comparison);
  for (const PolicyRun& run : comparison.runs) {
    if (!run.skipped.unknown_team.empty()) {
      out += "\nSkipped jobs of teams that " + run.name +
             " lacks: " + unknown_teams_text(run.skipped) + "\n";
    }
  }
  return out;
}

}  // namespace allot::cli
