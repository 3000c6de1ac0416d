// The attributes and excludedAttributes query parameters (RFC 7644 sections
// 3.4.2.5 and 3.9): which attributes of a resource a response carries.
//
// Contract: names are attribute paths ("userName", "name.givenName", an
// enterprise URN-prefixed name, or an extension's URN), matched
// case-insensitively; names that do not parse or name nothing are ignored.
// With `attributes`, a response has those attributes plus id and schemas
// (returned always); otherwise every attribute but the excluded ones (id and
// schemas are never excluded). Attributes returned "never" (password) are
// never in a stored resource, so there is nothing to hide here. Pure,
// thread-safe.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "identity/scim/scim_schema.h"

namespace allot::scim {

struct AttributeSelection {
  std::vector<std::string> attributes;           // empty: all (default) attributes
  std::vector<std::string> excluded_attributes;  // used when `attributes` is empty

  // From the query parameters' comma-separated lists ("members,meta").
  static AttributeSelection from_parameters(std::string_view attributes,
                                            std::string_view excluded_attributes);
};

nlohmann::json project(const nlohmann::json& resource, const AttributeSelection& selection);

}  // namespace allot::scim
