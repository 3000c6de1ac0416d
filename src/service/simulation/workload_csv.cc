#include "service/simulation/workload_csv.h"

#include <cstdio>
#include <optional>
#include <string_view>

namespace allot {
namespace {

void append_field(std::string& out, std::string_view field) {
  if (field.find_first_of(",\"\n\r") == std::string_view::npos) {
    out += field;
    return;
  }
  out += '"';
  for (char c : field) {
    if (c == '"') {
      out += '"';
    }
    out += c;
  }
  out += '"';
}

void append_seconds(std::string& out, std::optional<double> seconds) {
  if (!seconds) {
    return;
  }
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%.3f", *seconds);
  out += buffer;
}

}  // namespace

std::string workloads_csv(const SimulationReport& report) {
  std::string out =
      "name,namespace,priority_class,submitted_s,admitted_s,finished_s,preemptions,state\n";
  for (const WorkloadRecord& record : report.workloads) {
    append_field(out, record.name);
    out += ',';
    append_field(out, record.namespace_name);
    out += ',';
    append_field(out, record.priority_class);
    out += ',';
    append_seconds(out, record.submitted_s);
    out += ',';
    append_seconds(out, record.admitted_s);
    out += ',';
    append_seconds(out, record.finished_s);
    out += ',';
    out += std::to_string(record.preemptions);
    out += ',';
    append_field(out, record.state);
    out += '\n';
  }
  return out;
}

}  // namespace allot
