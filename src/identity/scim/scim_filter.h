// SCIM filters (RFC 7644 section 3.4.2.2) and PATCH paths (section 3.5.2):
// parsing into a tree, writing back, and evaluating against a resource.
//
// Grammar: comparisons `attrPath op value` with eq ne co sw ew gt ge lt le,
// presence `attrPath pr`, `and`, `or`, `not (...)`, parentheses, and value
// paths `emails[type eq "work" and primary eq true]`. Precedence: not and
// parentheses bind tightest, then and, then or. Operators, keywords and
// attribute names are case-insensitive; values are JSON literals (strings
// with JSON escapes, true, false, null, numbers). A PATCH path is an
// attribute path, or a value path with an optional ".subAttribute"
// (`emails[type eq "work"].value`).
//
// Evaluation: a comparison on a multi-valued attribute matches when any value
// does; on a multi-valued complex attribute without a sub-attribute it reads
// each value's "value" (`emails co "@x.org"`). Strings compare ignoring ASCII
// case unless the schema marks the attribute caseExact (id, externalId,
// meta.*, members.value). `ne` is `not eq` (an absent attribute is not equal
// to anything); `eq null` matches an absent attribute. gt/ge/lt/le order
// strings and numbers (dateTime strings as text: allotd writes them in one
// fixed UTC form); a comparison between different JSON types, or an
// ordering on a boolean, does not match. Unknown attributes are read from the
// JSON as they are (case-insensitive strings).
//
// Errors: parse_filter() returns kInvalidArgument with scimType
// invalidFilter, parse_patch_path() with invalidPath; the details carry
// "offset N", the 0-based byte where the text stopped making sense. Nesting
// deeper than kMaxFilterDepth is refused, so evaluation and destruction stay
// shallow whatever a client sends. Pure, thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "identity/scim/scim_attribute_path.h"
#include "identity/scim/scim_schema.h"

namespace allot::scim {

inline constexpr int kMaxFilterDepth = 32;

enum class CompareOp { kEq, kNe, kCo, kSw, kEw, kGt, kGe, kLt, kLe, kPr };

struct FilterNode {
  enum class Kind { kCompare, kAnd, kOr, kNot, kValuePath };
  Kind kind = Kind::kCompare;
  AttributePath path;  // kCompare, kValuePath (the multi-valued attribute)
  CompareOp op = CompareOp::kPr;
  nlohmann::json value;  // kCompare: the literal (null for pr)
  // kAnd/kOr: two or more operands; kNot: one; kValuePath: the filter inside
  // the brackets, whose paths are relative to one value of `path`.
  std::vector<FilterNode> children;

  friend bool operator==(const FilterNode&, const FilterNode&) = default;
};

Result<FilterNode> parse_filter(std::string_view text);

// The filter written back in the grammar (fully parenthesised where needed);
// parse_filter() of it gives an equal tree.
std::string filter_to_string(const FilterNode& filter);

bool filter_matches(const FilterNode& filter, const nlohmann::json& resource, ResourceKind kind);

// A PATCH path. For `emails[type eq "work"].value`: attribute {emails, value}
// and the value filter; for `name.givenName`: attribute {name, givenName}.
struct PatchPath {
  AttributePath attribute;
  std::optional<FilterNode> value_filter;
};

Result<PatchPath> parse_patch_path(std::string_view text);

// Whether one value of a multi-valued complex attribute (an element of
// "emails", "members") satisfies a value filter. `attribute` is the
// attribute's definition, or nullptr for an attribute outside the schema.
bool value_matches(const FilterNode& filter, const nlohmann::json& element,
                   const AttributeDef* attribute);

}  // namespace allot::scim
