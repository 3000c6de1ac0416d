// YAML to JSON: the stored and served form of applied manifests.
//
// Contract: maps become objects (keys in document order are not kept: JSON
// objects are sorted), sequences arrays. Plain (unquoted) scalars that read as
// integers, decimals, true/false or null become JSON numbers, booleans and
// null, a number only when JSON writes it as the same text ("0.5", not "0.50"
// or "-0"); every other scalar, and every quoted one, stays a string. Parsing
// the JSON back as YAML gives the same manifest. Aliases are expanded.
#pragma once

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace allot {

nlohmann::json yaml_to_json(const YAML::Node& node);

}  // namespace allot
