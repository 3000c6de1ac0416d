#include "cli/output/json_yaml.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdlib>
#include <string_view>

#include <yaml-cpp/yaml.h>

namespace allot::cli {
namespace {

bool reads_as_keyword(const std::string& text) {
  constexpr std::array<std::string_view, 12> kKeywords = {
      "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", ".inf", ".nan"};
  std::string lowered = text;
  std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (!lowered.empty() && (lowered.front() == '-' || lowered.front() == '+')) {
    if (lowered.substr(1) == ".inf") return true;
  }
  return std::find(kKeywords.begin(), kKeywords.end(), lowered) != kKeywords.end();
}

bool reads_as_number(const std::string& text) {
  if (text.empty()) return false;
  char* end = nullptr;
  std::strtod(text.c_str(), &end);
  if (end == text.c_str() + text.size()) return true;
  // YAML 1.1 also reads 0x1F, 0o17 and 1_000 as numbers.
  return (std::isdigit(static_cast<unsigned char>(text.front())) != 0) &&
         text.find_first_not_of("0123456789_.:+-eExXoObBabcdefABCDEF") == std::string::npos;
}

void emit_string(YAML::Emitter& out, const std::string& text) {
  if (text.empty() || reads_as_keyword(text) || reads_as_number(text)) {
    out << YAML::DoubleQuoted << text;
  } else {
    out << text;
  }
}

void emit(YAML::Emitter& out, const nlohmann::json& value) {
  switch (value.type()) {
    case nlohmann::json::value_t::object:
      // An empty map in block style would be written on a line of its own.
      out << (value.empty() ? YAML::Flow : YAML::Block) << YAML::BeginMap;
      for (const auto& [key, item] : value.items()) {
        out << YAML::Key;
        emit_string(out, key);
        out << YAML::Value;
        emit(out, item);
      }
      out << YAML::EndMap;
      return;
    case nlohmann::json::value_t::array:
      out << (value.empty() ? YAML::Flow : YAML::Block) << YAML::BeginSeq;
      for (const nlohmann::json& item : value) emit(out, item);
      out << YAML::EndSeq;
      return;
    case nlohmann::json::value_t::string:
      emit_string(out, value.get_ref<const std::string&>());
      return;
    case nlohmann::json::value_t::null: out << YAML::Null; return;
    default: out << value.dump();  // booleans and numbers, as JSON writes them
  }
}

}  // namespace

std::string json_to_yaml(const nlohmann::json& value) {
  YAML::Emitter out;
  out.SetNullFormat(YAML::LowerNull);
  emit(out, value);
  return std::string(out.c_str()) + "\n";
}

std::string structured_text(const nlohmann::json& value, std::string_view format) {
  return format == "yaml" ? json_to_yaml(value) : value.dump(2) + "\n";
}

}  // namespace allot::cli
