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

nlohmann::json simulation_json(const SimulationReport& simulation) {
  return {{"workloads", simulation.workloads.size()},
          {"wall_s", simulation.wall_s},
          {"lowest_team_usage", lowest_usage(simulation)},
          {"preemptions", simulation.preemptions}};
}

}  // namespace

nlohmann::json replay_report_json(const ReplayMetrics& real, const ReplaySimulations& simulations) {
  const SimulationReport& simulation = simulations.scenario;
  nlohmann::json at_latency = nullptr;
  if (simulations.at_start_latency) {
    at_latency = simulation_json(*simulations.at_start_latency);
    at_latency["start_latency_ms"] = simulations.start_latency_ms;
  }
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
          {"simulation", simulation_json(simulation)},
          {"classes", std::move(classes)},
          {"held_beyond_runtime_ms", real.held_beyond_runtime_ms
                                         ? nlohmann::json(*real.held_beyond_runtime_ms)
                                         : nlohmann::json(nullptr)},
          {"simulation_at_start_latency", std::move(at_latency)}};
}

std::string replay_report_table(const nlohmann::json& report) {
  std::ostringstream out;
  const nlohmann::json& at_latency = report["simulation_at_start_latency"];
  const auto row = [&out, &at_latency](const std::string& name, const std::string& a,
                                       const std::string& b, const std::string& c) {
    out << std::left << std::setw(26) << name << std::right << std::setw(12) << a << std::setw(12)
        << b;
    if (!at_latency.is_null()) out << std::setw(14) << c;
    out << "\n";
  };
  row("", "allotd", "simulation", "sim@latency");
  for (const char* key : {"workloads", "wall_s", "lowest_team_usage", "preemptions"}) {
    row(key, cell(report["allotd"][key]), cell(report["simulation"][key]),
        at_latency.is_null() ? "" : cell(at_latency[key]));
  }
  if (!at_latency.is_null()) {
    row("held_beyond_runtime_ms", cell(report["held_beyond_runtime_ms"]), "",
        cell(at_latency["start_latency_ms"]));
  }
  for (const auto& [name, cls] : report["classes"].items()) {
    row("tta_mean_s " + name, cell(cls["allotd_tta_mean_s"]), cell(cls["simulation_tta_mean_s"]),
        "");
  }
  return out.str();
}

}  // namespace allot::bench
