#include "api/prometheus_rules.h"

#include <yaml-cpp/yaml.h>

namespace allot {

std::string prometheus_duration(Duration duration) {
  if (duration.ms() % 1000 == 0) return std::to_string(duration.ms() / 1000) + "s";
  return std::to_string(duration.ms()) + "ms";
}

std::string render_prometheus_rules(const std::vector<Signal>& signals) {
  YAML::Emitter out;
  out << YAML::BeginMap << YAML::Key << "groups" << YAML::Value << YAML::BeginSeq;
  out << YAML::BeginMap << YAML::Key << "name" << YAML::Value << "allot-signals";
  out << YAML::Key << "rules" << YAML::Value << YAML::BeginSeq;
  for (const Signal& signal : signals) {
    const SignalSpec& spec = signal.spec;
    out << YAML::BeginMap;
    out << YAML::Key << "alert" << YAML::Value << signal.meta.name;
    out << YAML::Key << "expr" << YAML::Value << YAML::DoubleQuoted << spec.expression;
    if (spec.for_duration > Duration()) {
      out << YAML::Key << "for" << YAML::Value << prometheus_duration(spec.for_duration);
    }
    out << YAML::Key << "labels" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "owner" << YAML::Value << YAML::DoubleQuoted << spec.owner;
    out << YAML::Key << "signal" << YAML::Value << signal.meta.name;
    out << YAML::Key << "source" << YAML::Value << "allot" << YAML::EndMap;
    out << YAML::Key << "annotations" << YAML::Value << YAML::BeginMap;
    out << YAML::Key << "summary" << YAML::Value << YAML::DoubleQuoted << spec.response.text;
    if (!spec.response.runbook.empty()) {
      out << YAML::Key << "runbook_url" << YAML::Value << spec.response.runbook;
    }
    out << YAML::EndMap << YAML::EndMap;
  }
  out << YAML::EndSeq << YAML::EndMap << YAML::EndSeq << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace allot
