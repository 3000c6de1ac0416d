// JSON text parsed with every object's keys unique. nlohmann's parser keeps
// the last of a repeated key without a word; a manifest sent as JSON must be
// rejected for it, as a YAML map's repeated key is (MapReader).
//
// Contract: parse_json_unique_keys() parses as nlohmann::json::parse does
// without exceptions: a value that is_discarded() when the text is not JSON.
// It also gives the path to the first key, in the text's order, that repeats
// within its object (the value keeps that key's last occurrence, as nlohmann
// does). Pure; nothing throws.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

namespace allot {

// One step into a JSON value: an object's key or an array's index.
using JsonStep = std::variant<std::string, size_t>;

struct UniqueKeysJson {
  nlohmann::json value;
  // From the root to the first repeated key, that key last; empty when no key
  // repeats or the text is not JSON.
  std::vector<JsonStep> repeated_key;
};

UniqueKeysJson parse_json_unique_keys(std::string_view text);

}  // namespace allot
