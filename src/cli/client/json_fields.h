// JsonFields: reading the JSON objects that allotd serves, defensively.
//
// Contract: allotd's answers are read field by field; a missing field, a null
// or a value of an unexpected type reads as "absent" rather than failing, so
// that a newer server with more (or fewer) fields still prints. Pure
// functions, no exceptions.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace allot::cli {

// The value under a path of object keys, or nullptr when any step is missing
// or not an object.
const nlohmann::json* find_at(const nlohmann::json& value,
                              std::initializer_list<std::string_view> path);

// A scalar as text for people: strings as they are, numbers and booleans as
// JSON writes them, null as "". Arrays and objects as compact JSON.
std::string scalar_text(const nlohmann::json& value);

// scalar_text of the value under `path`, "" when missing.
std::string text_at(const nlohmann::json& value, std::initializer_list<std::string_view> path);

// An integer from a JSON number or a string of digits ("8"); nullopt otherwise.
std::optional<int64_t> integer_of(const nlohmann::json& value);

// The elements of the array under `key`, or an empty array.
const nlohmann::json& array_at(const nlohmann::json& value, std::string_view key);

}  // namespace allot::cli
