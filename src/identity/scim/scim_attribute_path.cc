#include "identity/scim/scim_attribute_path.h"

#include "identity/scim/scim_error.h"
#include "identity/scim/scim_names.h"

namespace allot::scim {
namespace {

bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// ATTRNAME = ALPHA *(ALPHA / DIGIT / "-" / "_"), and "$ref".
bool is_attribute_name(std::string_view name) {
  if (name == "$ref") return true;
  if (name.empty() || !is_alpha(name.front())) return false;
  for (char c : name) {
    if (!is_alpha(c) && !is_digit(c) && c != '-' && c != '_') return false;
  }
  return true;
}

Status bad_path(std::string_view text, std::string_view why) {
  return scim_error(ScimType::kInvalidPath,
                    "invalid attribute path " + quote_input(text) + ": " + std::string(why));
}

// Splits "urn:...:User:name.givenName" into the URN and the rest; a known
// schema's URN wins over the last colon.
void split_urn(std::string_view text, std::string& schema, std::string_view& rest) {
  for (const SchemaDef* known : all_schemas()) {
    if (iequals(text, known->id)) {
      schema = std::string(text);
      rest = {};
      return;
    }
    if (text.size() > known->id.size() && istarts_with(text, known->id) &&
        text[known->id.size()] == ':') {
      schema = std::string(text.substr(0, known->id.size()));
      rest = text.substr(known->id.size() + 1);
      return;
    }
  }
  const size_t colon = text.rfind(':');
  schema = std::string(text.substr(0, colon));
  rest = text.substr(colon + 1);
}

const AttributeDef* find_in(const std::vector<AttributeDef>& defs, std::string_view name) {
  for (const AttributeDef& def : defs) {
    if (iequals(def.name, name)) return &def;
  }
  return nullptr;
}

}  // namespace

bool is_path_char(char c) {
  return is_alpha(c) || is_digit(c) || c == '-' || c == '_' || c == ':' || c == '.' || c == '$';
}

std::string AttributePath::to_string() const {
  std::string text = schema;
  if (!schema.empty() && !attribute.empty()) text += ':';
  text += attribute;
  if (!sub_attribute.empty()) text += "." + sub_attribute;
  return text;
}

Result<AttributePath> parse_attribute_path(std::string_view text) {
  AttributePath path;
  std::string_view rest = text;
  if (istarts_with(text, "urn:")) {
    split_urn(text, path.schema, rest);
    if (rest.empty() && find_schema(path.schema) == nullptr) {
      return bad_path(text, "a URN must be followed by ':' and an attribute name");
    }
  }
  if (rest.empty() && path.schema.empty()) return bad_path(text, "empty");
  if (rest.empty()) return path;
  const size_t dot = rest.find('.');
  path.attribute = std::string(rest.substr(0, dot));
  if (dot != std::string_view::npos) path.sub_attribute = std::string(rest.substr(dot + 1));
  if (!is_attribute_name(path.attribute) ||
      (dot != std::string_view::npos && !is_attribute_name(path.sub_attribute))) {
    return bad_path(text, "expected name or name.subAttribute");
  }
  return path;
}

std::optional<ResolvedAttribute> resolve_attribute(ResourceKind kind, const AttributePath& path) {
  ResolvedAttribute resolved;
  const SchemaDef& core = core_schema(kind);
  if (path.schema.empty() || iequals(path.schema, core.id)) {
    resolved.attribute = find_in(common_attributes(), path.attribute);
    if (resolved.attribute == nullptr) resolved.attribute = core.find(path.attribute);
  } else {
    for (const SchemaDef* extension : extension_schemas(kind)) {
      if (iequals(extension->id, path.schema)) resolved.extension = extension;
    }
    if (resolved.extension == nullptr) return std::nullopt;
    if (path.attribute.empty()) return resolved;
    resolved.attribute = resolved.extension->find(path.attribute);
  }
  if (resolved.attribute == nullptr) return std::nullopt;
  if (!path.sub_attribute.empty()) {
    resolved.sub_attribute = resolved.attribute->find_sub(path.sub_attribute);
    if (resolved.sub_attribute == nullptr) return std::nullopt;
  }
  return resolved;
}

}  // namespace allot::scim
