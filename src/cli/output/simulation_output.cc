#include "cli/output/simulation_output.h"

#include <cstdio>
#include <string_view>

#include "cli/output/number_text.h"
#include "cli/output/text_table.h"

namespace allot::cli {
namespace {

// How many unfinished workloads the table names before summarising the rest.
constexpr size_t kNeverAdmittedListed = 10;

std::string class_label(const std::string& name) { return name.empty() ? "(none)" : name; }

std::string overall_table(const SimulationReport& report, double runtime_s) {
  TextTable table({"SIMULATION", "VALUE"});
  table.add_row({"wall time (virtual)", seconds_text(report.wall_s)});
  table.add_row(
      {"utilization (" + report.primary_resource + ")", percent_text(report.utilization)});
  table.add_row({"admissions", std::to_string(report.admissions)});
  table.add_row({"preemptions", std::to_string(report.preemptions)});
  table.add_row({"evictions", std::to_string(report.evictions)});
  table.add_row({"work lost to preemption (" + report.primary_resource + "-seconds)",
                 fixed(report.lost_to_preemption, 0)});
  table.add_row({"work lost to evictions (" + report.primary_resource + "-seconds)",
                 fixed(report.lost_to_eviction, 0)});
  if (report.suspensions > 0 || report.resumes > 0) {  // only scenarios with Spaces
    table.add_row({"spaces suspended", std::to_string(report.suspensions)});
    table.add_row({"spaces resumed", std::to_string(report.resumes)});
  }
  table.add_row({"workloads", std::to_string(report.workloads.size())});
  table.add_row({"never admitted", std::to_string(report.never_admitted.size())});
  table.add_row({"scheduling cycles", std::to_string(report.cycles)});
  table.add_row({"runtime (real)", fixed(runtime_s, 3) + "s"});
  return table.render();
}

std::string teams_table(const SimulationReport& report) {
  TextTable table({"TEAM", "JOBS", "USAGE", "BORROWED", "MEAN WAIT", "P95 WAIT", "MAX WAIT"});
  for (const TeamMetrics& team : report.teams) {
    table.add_row({team.name, std::to_string(team.jobs), percent_text(team.usage),
                   percent_text(team.borrowed_share), seconds_text(team.mean_wait_s),
                   seconds_text(team.p95_wait_s), seconds_text(team.max_wait_s)});
  }
  return table.render();
}

std::string classes_table(const SimulationReport& report) {
  TextTable table({"PRIORITY CLASS", "JOBS", "MEAN TIME TO ADMISSION"});
  for (const ClassMetrics& priority_class : report.classes) {
    table.add_row({class_label(priority_class.name), std::to_string(priority_class.jobs),
                   seconds_text(priority_class.tta_mean_s)});
  }
  return table.render();
}

}  // namespace

nlohmann::json simulation_json(const SimulationReport& report, double runtime_s) {
  nlohmann::json teams = nlohmann::json::object();
  for (const TeamMetrics& team : report.teams) {
    teams[team.name] = {{"usage", team.usage},
                        {"mean_wait_s", team.mean_wait_s},
                        {"p95_wait_s", team.p95_wait_s},
                        {"max_wait_s", team.max_wait_s},
                        {"borrowed_share", team.borrowed_share},
                        {"jobs", team.jobs}};
  }
  nlohmann::json classes = nlohmann::json::object();
  for (const ClassMetrics& priority_class : report.classes) {
    classes[priority_class.name] = {{"tta_mean_s", priority_class.tta_mean_s},
                                    {"jobs", priority_class.jobs}};
  }
  return {{"wall_s", report.wall_s},
          {"utilization", report.utilization},
          {"admissions", report.admissions},
          {"preemptions", report.preemptions},
          {"evictions", report.evictions},
          {"lost_to_preemption_s", report.lost_to_preemption},
          {"lost_to_eviction_s", report.lost_to_eviction},
          {"cycles", report.cycles},
          {"primary_resource", report.primary_resource},
          {"runtime_s", runtime_s},
          {"never_admitted", report.never_admitted.size()},
          {"teams", std::move(teams)},
          {"classes", std::move(classes)}};
}

std::string simulation_table(const SimulationReport& report, double runtime_s) {
  std::string out = overall_table(report, runtime_s);
  out += "\n" + teams_table(report);
  out += "\n" + classes_table(report);
  if (!report.never_admitted.empty()) {
    out += "\nNever admitted (still pending at the end):\n";
    for (size_t i = 0; i < report.never_admitted.size() && i < kNeverAdmittedListed; ++i) {
      out += "  " + report.never_admitted[i] + "\n";
    }
    if (report.never_admitted.size() > kNeverAdmittedListed) {
      out += "  ... and " + std::to_string(report.never_admitted.size() - kNeverAdmittedListed) +
             " more (see --workloads)\n";
    }
  }
  return out;
}

}  // namespace allot::cli
