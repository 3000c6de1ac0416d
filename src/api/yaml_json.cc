#include "api/yaml_json.h"

#include <cstdint>
#include <regex>
#include <string>

namespace allot {
namespace {

bool is_integer(const std::string& text) {
  static const std::regex kInteger("-?(0|[1-9][0-9]{0,17})");
  return std::regex_match(text, kInteger);
}

bool is_decimal(const std::string& text) {
  static const std::regex kDecimal("-?(0|[1-9][0-9]{0,14})\\.[0-9]{1,9}");
  return std::regex_match(text, kDecimal);
}

// A number only when JSON writes it back as the same text. The scalar may be
// a name, a label or an argument, never known here: "1.10" kept as 1.1 once
// renamed a ResourceFlavor `1.10` to `1.1` in the stored policy, which then
// no longer loaded (its teams named a flavor that did not exist).
nlohmann::json number_or_text(nlohmann::json number, const std::string& text) {
  if (number.dump() == text) return number;
  return text;
}

nlohmann::json scalar_to_json(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  if (node.Tag() != "?") return text;  // quoted or explicitly tagged: a string
  if (text == "true") return true;
  if (text == "false") return false;
  if (text == "null" || text == "~" || text.empty()) return nullptr;
  if (is_integer(text)) return number_or_text(std::stoll(text), text);  // "-0" stays text
  if (is_decimal(text)) return number_or_text(std::stod(text), text);   // "0.50" stays text
  return text;
}

}  // namespace

nlohmann::json yaml_to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: {
      nlohmann::json object = nlohmann::json::object();
      for (const auto& entry : node) {
        const std::string key = entry.first.IsScalar() ? entry.first.Scalar() : std::string();
        object[key] = yaml_to_json(entry.second);
      }
      return object;
    }
    case YAML::NodeType::Sequence: {
      nlohmann::json array = nlohmann::json::array();
      for (const auto& item : node) array.push_back(yaml_to_json(item));
      return array;
    }
    case YAML::NodeType::Scalar: return scalar_to_json(node);
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: return nullptr;
  }
  return nullptr;
}

}  // namespace allot
