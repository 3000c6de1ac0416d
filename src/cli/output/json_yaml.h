// JsonYaml: `-o yaml` output, the JSON that allotd serves written as YAML.
//
// Contract: objects become block maps (keys in JSON order), arrays block
// sequences, null is `null`; numbers and booleans are written as JSON writes
// them; a string that YAML would read back as something else ("8", "true",
// "null", "", "1e3") is double-quoted, so that reading the YAML gives the
// same JSON. The text ends with a newline. structured_text() is `-o json`
// (indented by two) or `-o yaml`. Pure.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace allot::cli {

std::string json_to_yaml(const nlohmann::json& value);

// REQUIRES: format is "json" or "yaml".
std::string structured_text(const nlohmann::json& value, std::string_view format);

}  // namespace allot::cli
