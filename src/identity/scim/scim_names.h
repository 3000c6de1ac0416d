// SCIM names are case-insensitive (RFC 7643 section 2.1): attribute names,
// schema URNs, operators and PATCH op names. These helpers compare them and
// find a member of a JSON object whatever the case of its key.
//
// Contract: ASCII case folding only (names are ASCII by the grammar; values
// compared case-insensitively fold ASCII letters and leave other bytes as
// they are). Pure functions, thread-safe.
#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace allot::scim {

std::string ascii_lower(std::string_view text);
bool iequals(std::string_view a, std::string_view b);
bool istarts_with(std::string_view text, std::string_view prefix);

// The member of `object` whose key equals `name` case-insensitively (an exact
// match first); nullptr when there is none or `object` is not an object.
const nlohmann::json* find_member(const nlohmann::json& object, std::string_view name);
nlohmann::json* find_member(nlohmann::json& object, std::string_view name);

// Removes every member whose key equals `name` case-insensitively.
void erase_member(nlohmann::json& object, std::string_view name);

}  // namespace allot::scim
