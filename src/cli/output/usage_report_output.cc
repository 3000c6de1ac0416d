#include "cli/output/usage_report_output.h"

#include <cctype>
#include <cstdio>
#include <sstream>
#include <vector>

#include "api/number_text.h"
#include "cli/output/text_table.h"

namespace allot::cli {
namespace {

constexpr const char* kTitles[] = {"GPU-H", "OWN GPU-H", "BORROWED GPU-H",
                                   "CPU-H", "MEM GIB-H", "IDLE GPU-H",
                                   "COST",  "OWN COST",  "BORROWED COST"};

std::vector<std::string> keys_of(const nlohmann::json& report) {
  std::vector<std::string> keys;
  for (const auto& key : report.value("by", nlohmann::json::array())) {
    if (key.is_string()) keys.push_back(key.get<std::string>());
  }
  return keys;
}

double number(const nlohmann::json& object, const char* field) {
  const auto it = object.find(field);
  return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string text(const nlohmann::json& object, const std::string& field) {
  const auto it = object.find(field);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string rounded(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.2f", value);
  return buffer;
}

void add_figures(std::vector<std::string>& cells, const nlohmann::json& row, bool round) {
  for (const char* field : kUsageFigures) {
    cells.push_back(round ? rounded(number(row, field)) : number_text(number(row, field)));
  }
}

// The measured GPU utilisation of a row: "61.50%" ("61.5" unrounded), or
// "not measured" (empty in CSV) where the report has none.
std::string utilization_cell(const nlohmann::json& row, bool round) {
  const auto it = row.find("gpuUtilization");
  if (it == row.end() || !it->is_number()) return round ? "not measured" : "";
  const double percent = it->get<double>() * 100;  // NOLINT(readability-magic-numbers)
  return round ? rounded(percent) + "%" : number_text(it->get<double>());
}

std::string measured_cell(const nlohmann::json& row, bool round) {
  const auto it = row.find("measuredGpuHours");
  if (it == row.end() || !it->is_number()) return round ? "-" : "";
  return round ? rounded(it->get<double>()) : number_text(it->get<double>());
}

void add_efficiency(std::vector<std::string>& cells, const nlohmann::json& row, bool round) {
  cells.push_back(measured_cell(row, round));
  cells.push_back(utilization_cell(row, round));
}

void describe_idle(const nlohmann::json& report, std::ostringstream& out) {
  const nlohmann::json idle = report.value("idle", nlohmann::json::object());
  for (const auto& flavor : idle.value("flavors", nlohmann::json::array())) {
    out << "idle " << text(flavor, "flavor") << ": " << rounded(number(flavor, "idleGpuHours"))
        << " GPU-h (" << rounded(number(flavor, "idleCost")) << " " << text(report, "currency")
        << ") of " << rounded(number(flavor, "capacityGpuHours")) << " GPU-h capacity, "
        << rounded(number(flavor, "allocatedGpuHours")) << " allocated, "
        << rounded(number(flavor, "sharedIdleGpuHours")) << " idle shared (" << text(idle, "mode")
        << ")\n";
    if (number(flavor, "backendWhileMissingGpuHours") != 0) {
      out << "recorded by the backend while allotd was down " << text(flavor, "flavor") << ": "
          << rounded(number(flavor, "backendWhileMissingGpuHours"))
          << " GPU-h (in the rows, not in the capacity above)\n";
    }
  }
}

void describe_period(const nlohmann::json& report, std::ostringstream& out) {
  for (const auto& gap : report.value("missingData", nlohmann::json::array())) {
    out << "missing data: " << text(gap, "from") << " to " << text(gap, "to")
        << " (allotd was down)\n";
  }
  for (const auto& a : report.value("backendAdjustments", nlohmann::json::array())) {
    out << "adjusted to the backend's accounting: " << text(a, "workload") << " "
        << a.value("gpus", int64_t{0}) << " GPUs from " << text(a, "from") << " to "
        << text(a, "to") << " (jobs " << text(a, "jobIds") << ")\n";
  }
  for (const auto& card : report.value("rateCards", nlohmann::json::array())) {
    out << "rate card " << card.value("version", 0) << ": " << text(card, "flavor") << " from "
        << text(card, "from") << ", " << number_text(number(card, "gpuHour")) << "/GPU-h "
        << number_text(number(card, "cpuHour")) << "/CPU-h "
        << number_text(number(card, "memoryGiBHour")) << "/GiB-h " << text(card, "currency")
        << "\n";
  }
  out << "period " << text(report, "from") << " to " << text(report, "to") << ", content hash "
      << text(report, "contentHash") << "\n";
}

}  // namespace

std::string usage_report_table(const nlohmann::json& report) {
  const std::vector<std::string> keys = keys_of(report);
  std::vector<std::string> header;
  for (const std::string& key : keys) {
    std::string title = key;
    for (char& c : title) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    header.push_back(title);
  }
  header.insert(header.end(), std::begin(kTitles), std::end(kTitles));
  header.insert(header.end(), {"MEASURED GPU-H", "GPU UTIL"});
  TextTable table(header);
  for (const auto& row : report.value("rows", nlohmann::json::array())) {
    std::vector<std::string> cells;
    cells.reserve(header.size());
    for (const std::string& key : keys) cells.push_back(text(row, key));
    add_figures(cells, row, true);
    add_efficiency(cells, row, true);
    table.add_row(std::move(cells));
  }
  std::vector<std::string> total(keys.size(), "");
  if (!total.empty()) total[0] = "TOTAL";
  add_figures(total, report.value("totals", nlohmann::json::object()), true);
  add_efficiency(total, report.value("totals", nlohmann::json::object()), true);
  table.add_row(std::move(total));
  std::ostringstream out;
  out << table.render();
  if (!text(report, "currency").empty()) out << "costs in " << text(report, "currency") << "\n";
  describe_idle(report, out);
  describe_period(report, out);
  return out.str();
}

}  // namespace allot::cli
