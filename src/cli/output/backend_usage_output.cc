#include "cli/output/backend_usage_output.h"

#include <cstdio>
#include <vector>

#include "cli/output/text_table.h"

namespace allot::cli {
namespace {

double seconds_of(const nlohmann::json& row, const char* field) {
  const auto it = row.find(field);
  return it != row.end() && it->is_number() ? it->get<double>() : 0.0;
}

std::string text_of(const nlohmann::json& object, const char* field) {
  const auto it = object.find(field);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string one_decimal(double value, bool signed_value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, signed_value ? "%+.1f" : "%.1f", value);
  return buffer;
}

std::vector<std::string> cells_of(std::string name, const nlohmann::json& row) {
  return {std::move(name), one_decimal(seconds_of(row, "allotGpuSeconds"), false),
          one_decimal(seconds_of(row, "backendGpuSeconds"), false),
          one_decimal(seconds_of(row, "differenceGpuSeconds"), true)};
}

}  // namespace

std::string backend_usage_table(const nlohmann::json& comparison) {
  std::string out = "backend: " + text_of(comparison, "source") + "\n";
  out += "hours compared: " + text_of(comparison, "from") + " to " + text_of(comparison, "to") +
         "\n\n";
  TextTable table({"TEAM", "ALLOT GPU-S", "BACKEND GPU-S", "ALLOT - BACKEND"});
  for (const auto& row : comparison.value("rows", nlohmann::json::array())) {
    table.add_row(cells_of(text_of(row, "team"), row));
  }
  table.add_row(cells_of("TOTAL", comparison.value("totals", nlohmann::json::object())));
  out += table.render();
  if (comparison.value("hourOpen", false)) {
    out += "\nthe last hour is still open: allot counted to " + text_of(comparison, "countedTo") +
           "; the backend counts an hour once it has rolled it up (slurmdbd: shortly after the "
           "hour ends)\n";
  }
  return out;
}

}  // namespace allot::cli
