#include "bench/replay_report.h"

#include <algorithm>
#include <iomanip>
#include <sstream>
#include <utility>

namespace allot::bench {
namespace {

double lowest_usage(const SimulationReport& report) {
  double lowest = report.teams.empty() ? 0 : 1e18;
  for (const TeamMetrics& team : report.teams) lowest = std::min(lowest, team.usage);
  return lowest;
}

std::string cell(const nlohmann::json& value) {
  if (!value.is_number_float()) return value.dump();
  std::ostringstream text;
  text << std::fixed << std::setprecision(value.get<double>() < 10 ? 3 : 1) << value.get<double>();
  return text.str();
}

}  // namespace

nlohmann::json replay_report_json(const ReplayMetrics& real, const SimulationReport& simulation) {
  nlohmann::json classes = nlohmann::json::object();
  for (const ClassMetrics& cls : simulation.classes) {
    auto it = real.class_tta_s.find(cls.name);
    classes[cls.name] = {{"allotd_tta_mean_s", it == real.class_tta_s.end() ? 0 : it->second},
                         {"simulation_tta_mean_s", cls.tta_mean_s}};
  }
  return {{"allotd",
           {{"workloads", real.workloads},
            {"finished", real.finished},
            {"wall_s", real.wall_s},
            {"lowest_team_usage", real.lowest_team_usage},
            {"preemptions", real.preemptions}}},
          {"simulation",
           {{"workloads", simulation.workloads.size()},
            {"wall_s", simulation.wall_s},
            {"lowest_team_usage", lowest_usage(simulation)},
            {"preemptions", simulation.preemptions}}},
          {"classes", std::move(classes)}};
}

std::string replay_report_table(const nlohmann::json& report) {
  std::ostringstream out;
  const auto row = [&out](const std::string& name, const std::string& a, const std::string& b) {
    out << std::left << std::setw(26) << name << std::right << std::setw(12) << a << std::setw(12)
        << b << "\n";
  };
  row("", "allotd", "simulation");
  for (const char* key : {"workloads", "wall_s", "lowest_team_usage", "preemptions"}) {
    row(key, cell(report["allotd"][key]), cell(report["simulation"][key]));
  }
  for (const auto& [name, cls] : report["classes"].items()) {
    row("tta_mean_s " + name, cell(cls["allotd_tta_mean_s"]), cell(cls["simulation_tta_mean_s"]));
  }
  return out.str();
}

}  // namespace allot::bench
