#include "service/identity/scim_request.h"

#include <charconv>

#include "identity/scim/scim_error.h"
#include "identity/scim/scim_resource.h"

namespace allot {
namespace {

using json = nlohmann::json;

Result<std::optional<int64_t>> whole_number(std::string_view name, std::string_view text) {
  if (text.empty()) return std::optional<int64_t>();
  int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    return scim::scim_error(
        scim::ScimType::kInvalidValue,
        std::string(name) + " must be a whole number, not " + scim::quote_input(text), name);
  }
  return std::optional<int64_t>(value);
}

}  // namespace

Result<json> parse_scim_body(std::string_view body) {
  json parsed = json::parse(body, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    return scim::scim_error(scim::ScimType::kInvalidSyntax,
                            "the request body must be a JSON object");
  }
  if (scim::nested_deeper_than(parsed, scim::kMaxValueDepth)) {
    return scim::scim_error(
        scim::ScimType::kInvalidSyntax,
        "the request body nests deeper than " + std::to_string(scim::kMaxValueDepth) + " levels");
  }
  return parsed;
}

Result<scim::ListQuery> scim_list_query(const ScimListParameters& parameters) {
  scim::ListQuery query;
  query.filter = parameters.filter;
  ALLOT_ASSIGN_OR_RETURN(const std::optional<int64_t> start,
                         whole_number("startIndex", parameters.start_index));
  if (start) query.start_index = *start;
  ALLOT_ASSIGN_OR_RETURN(query.count, whole_number("count", parameters.count));
  query.selection = scim_selection(parameters.attributes, parameters.excluded_attributes);
  return query;
}

scim::AttributeSelection scim_selection(std::string_view attributes,
                                        std::string_view excluded_attributes) {
  return scim::AttributeSelection::from_parameters(attributes, excluded_attributes);
}

std::optional<scim::ResourceKind> scim_resource_kind(std::string_view endpoint) {
  if (endpoint == "Users") return scim::ResourceKind::kUser;
  if (endpoint == "Groups") return scim::ResourceKind::kGroup;
  return std::nullopt;
}

json scim_error_body(int http_status, std::string_view message, std::string_view client_text) {
  return {{"schemas", {scim::kErrorSchema}},
          {"status", std::to_string(http_status)},
          {"detail", std::string(message) + scim::quote_input(client_text)}};
}

}  // namespace allot
