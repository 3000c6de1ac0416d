// Attribute paths (RFC 7644 section 3.10): "userName", "name.givenName",
// "urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department",
// and a whole extension by its URN. The filter and PATCH grammars build on it.
//
// Contract: parse_attribute_path() checks the grammar only; whether the path
// names an attribute of a resource kind is resolve_attribute()'s answer. A
// schema URN prefix is split off by matching the known schemas first, so the
// "2.0" inside a URN is never read as a sub-attribute. Errors are scimType
// invalidPath with the offending text. Pure, thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "identity/scim/scim_schema.h"

namespace allot::scim {

struct AttributePath {
  std::string schema;         // the URN prefix as written, or empty
  std::string attribute;      // "name"; empty when the path is a whole extension
  std::string sub_attribute;  // "givenName", or empty

  [[nodiscard]] std::string to_string() const;
  friend bool operator==(const AttributePath&, const AttributePath&) = default;
};

Result<AttributePath> parse_attribute_path(std::string_view text);

// Whether `c` may appear in a path token (names, URNs, ".", "$").
bool is_path_char(char c);

// What a path names in a resource kind's schemas.
struct ResolvedAttribute {
  // The extension schema holding the attribute (its JSON lives under the
  // extension's URN key), or nullptr for the core schema and common attributes.
  const SchemaDef* extension = nullptr;
  const AttributeDef* attribute = nullptr;      // nullptr: the whole extension
  const AttributeDef* sub_attribute = nullptr;  // nullptr: no sub-attribute
};

// std::nullopt when the kind has no such schema, attribute or sub-attribute,
// or when a sub-attribute is given for an attribute that is not complex.
std::optional<ResolvedAttribute> resolve_attribute(ResourceKind kind, const AttributePath& path);

}  // namespace allot::scim
