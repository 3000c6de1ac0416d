#include "bench/replay_report.h"

#include <algorithm>
#include <array>
#include <iomanip>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

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

double class_tta_s(const SimulationReport& simulation, const std::string& name) {
  for (const ClassMetrics& cls : simulation.classes) {
    if (cls.name == name) return cls.tta_mean_s;
  }
  return 0;
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
  nlohmann::json at_class = nullptr;
  if (simulations.at_class_latencies) {
    at_class = simulation_json(*simulations.at_class_latencies);
    at_class["start_latency_ms"] = simulations.class_latencies_ms;
  }
  nlohmann::json classes = nlohmann::json::object();
  for (const ClassMetrics& cls : simulation.classes) {
    auto it = real.class_tta_s.find(cls.name);
    nlohmann::json& row = classes[cls.name];
    row = {{"allotd_tta_mean_s", it == real.class_tta_s.end() ? 0 : it->second},
           {"simulation_tta_mean_s", cls.tta_mean_s}};
    if (auto held = real.class_held_beyond_runtime_ms.find(cls.name);
        held != real.class_held_beyond_runtime_ms.end()) {
      row["allotd_held_beyond_runtime_ms"] = held->second;
    }
    if (simulations.at_start_latency) {
      row["sim_at_latency_tta_mean_s"] = class_tta_s(*simulations.at_start_latency, cls.name);
    }
    if (simulations.at_class_latencies) {
      row["sim_at_class_latencies_tta_mean_s"] =
          class_tta_s(*simulations.at_class_latencies, cls.name);
    }
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
          {"simulation_at_start_latency", std::move(at_latency)},
          {"simulation_at_class_latencies", std::move(at_class)}};
}

std::string replay_report_table(const nlohmann::json& report) {
  const nlohmann::json& at_latency = report["simulation_at_start_latency"];
  const nlohmann::json& at_class = report.value("simulation_at_class_latencies", nlohmann::json());
  // Rows of: the figure's name, allotd, simulation, sim@latency, sim@class.
  std::vector<std::array<std::string, 5>> rows;
  const auto cell_of = [](const nlohmann::json& object, const char* key) {
    return object.is_object() && object.contains(key) ? cell(object[key]) : std::string();
  };
  rows.push_back({"", "allotd", "simulation", "sim@latency", "sim@class"});
  for (const char* key : {"workloads", "wall_s", "lowest_team_usage", "preemptions"}) {
    rows.push_back({key, cell(report["allotd"][key]), cell(report["simulation"][key]),
                    cell_of(at_latency, key), cell_of(at_class, key)});
  }
  if (!at_latency.is_null()) {
    rows.push_back({"held_beyond_runtime_ms", cell(report["held_beyond_runtime_ms"]), "",
                    cell(at_latency["start_latency_ms"]), ""});
  }
  for (const auto& [name, cls] : report["classes"].items()) {
    rows.push_back({"tta_mean_s " + name, cell(cls["allotd_tta_mean_s"]),
                    cell(cls["simulation_tta_mean_s"]), cell_of(cls, "sim_at_latency_tta_mean_s"),
                    cell_of(cls, "sim_at_class_latencies_tta_mean_s")});
  }
  if (!at_class.is_null()) {
    for (const auto& [name, latency_ms] : at_class["start_latency_ms"].items()) {
      const nlohmann::json cls = report["classes"].value(name, nlohmann::json::object());
      rows.push_back({"held_beyond_runtime_ms " + name,
                      cell_of(cls, "allotd_held_beyond_runtime_ms"), "", "", cell(latency_ms)});
    }
  }
  size_t name_width = 26;
  for (const auto& row : rows) name_width = std::max(name_width, row[0].size() + 1);
  std::ostringstream out;
  for (const auto& row : rows) {
    out << std::left << std::setw(static_cast<int>(name_width)) << row[0] << std::right
        << std::setw(12) << row[1] << std::setw(12) << row[2];
    if (!at_latency.is_null()) out << std::setw(14) << row[3];
    if (!at_class.is_null()) out << std::setw(14) << row[4];
    out << "\n";
  }
  return out.str();
}

}  // namespace allot::bench
