// Decoding SCIM requests (RFC 7644 section 3) into what ScimService takes,
// for the HTTP edge: the body, the list parameters, the resource endpoint,
// and the error body of answers that no Status carries (405).
//
// Contract: every refusal is a Status in scim_error.h's form (400 with
// scimType invalidSyntax for a body that is not a JSON object or nests
// deeper than the directory accepts; invalidValue for a startIndex or count
// that is not a whole number). Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "identity/scim/scim_directory.h"
#include "identity/scim/scim_projection.h"

namespace allot {

inline constexpr std::string_view kScimContentType = "application/scim+json";

// The raw query parameters of a list (GET /Users?filter=...): "" when absent.
struct ScimListParameters {
  std::string filter;
  std::string start_index;
  std::string count;
  std::string attributes;
  std::string excluded_attributes;
};

Result<nlohmann::json> parse_scim_body(std::string_view body);
Result<scim::ListQuery> scim_list_query(const ScimListParameters& parameters);
scim::AttributeSelection scim_selection(std::string_view attributes,
                                        std::string_view excluded_attributes);

// "Users" or "Groups" (as in the path); nullopt for anything else.
std::optional<scim::ResourceKind> scim_resource_kind(std::string_view endpoint);

// An RFC 7644 section 3.12 error body for a status no ErrorCode maps to:
// detail is `message` then `client_text` quoted (scim::quote_input: always
// valid UTF-8, whatever a client sent).
nlohmann::json scim_error_body(int http_status, std::string_view message,
                               std::string_view client_text);

}  // namespace allot
