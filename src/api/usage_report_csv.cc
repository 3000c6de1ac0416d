#include "api/usage_report_csv.h"

#include <sstream>
#include <string>
#include <vector>

#include "api/number_text.h"

namespace allot {
namespace {

double usage_csv_number(const nlohmann::json& object, const char* field) {
  const auto it = object.find(field);
  return it != object.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string usage_csv_text(const nlohmann::json& object, const std::string& field) {
  const auto it = object.find(field);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

// A figure that may be missing (measured GPU-hours, utilisation): "" then.
std::string usage_csv_optional(const nlohmann::json& row, const char* field) {
  const auto it = row.find(field);
  return it == row.end() || !it->is_number() ? "" : number_text(it->get<double>());
}

}  // namespace

std::string usage_report_csv(const nlohmann::json& report) {
  std::vector<std::string> keys;
  for (const auto& key : report.value("by", nlohmann::json::array())) {
    if (key.is_string()) keys.push_back(key.get<std::string>());
  }
  std::ostringstream out;
  std::vector<std::string> header = keys;
  header.insert(header.end(), kUsageFigures.begin(), kUsageFigures.end());
  header.push_back("currency");
  header.insert(header.end(), {"measuredGpuHours", "gpuUtilization"});
  for (size_t i = 0; i < header.size(); ++i) out << (i ? "," : "") << header[i];
  out << "\n";
  const auto line = [&](const nlohmann::json& row, bool is_total) {
    std::vector<std::string> cells;
    for (size_t i = 0; i < keys.size(); ++i) {
      cells.push_back(is_total ? (i == 0 ? "total" : "") : csv_field(usage_csv_text(row, keys[i])));
    }
    for (const char* field : kUsageFigures) {
      cells.push_back(number_text(usage_csv_number(row, field)));
    }
    cells.push_back(csv_field(usage_csv_text(report, "currency")));
    cells.push_back(usage_csv_optional(row, "measuredGpuHours"));
    cells.push_back(usage_csv_optional(row, "gpuUtilization"));
    for (size_t i = 0; i < cells.size(); ++i) out << (i ? "," : "") << cells[i];
    out << "\n";
  };
  for (const auto& row : report.value("rows", nlohmann::json::array())) line(row, false);
  line(report.value("totals", nlohmann::json::object()), true);
  return out.str();
}

std::string csv_field(const std::string& value) {
  if (value.find_first_of(",\"\n") == std::string::npos) return value;
  std::string quoted = "\"";
  for (char c : value) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

}  // namespace allot
