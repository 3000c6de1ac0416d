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

nlohmann::json scalar_to_json(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  if (node.Tag() != "?") return text;  // quoted or explicitly tagged: a string
  if (text == "true") return true;
  if (text == "false") return false;
  if (text == "null" || text == "~" || text.empty()) return nullptr;
  if (is_integer(text)) return std::stoll(text);
  if (is_decimal(text)) {
    // Keep the digits the user wrote: "0.50" would become 0.5, which reads the same.
    return std::stod(text);
  }
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
