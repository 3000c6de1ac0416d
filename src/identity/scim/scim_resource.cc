#include "identity/scim/scim_resource.h"

#include <string_view>
#include <utility>

#include "identity/scim/scim_error.h"
#include "identity/scim/scim_names.h"
#include "model/principal.h"

namespace allot::scim {
namespace {

Status bad_value(const std::string& where, std::string why) {
  return scim_error(ScimType::kInvalidValue, where + ": " + why, where);
}

nlohmann::json json_true() { return true; }
nlohmann::json json_false() { return false; }

bool is_empty(const nlohmann::json& value) {
  return value.is_null() || ((value.is_array() || value.is_object()) && value.empty());
}

Result<nlohmann::json> normalize_single(const AttributeDef& def, const nlohmann::json& value,
                                        const std::string& where);

Result<nlohmann::json> normalize_complex(const AttributeDef& def, const nlohmann::json& value,
                                         const std::string& where) {
  if (!value.is_object()) {
    if (value.is_primitive() && def.find_sub("value") != nullptr) {
      return normalize_complex(def, nlohmann::json{{"value", value}}, where);
    }
    return bad_value(where, "expected an object");
  }
  nlohmann::json out = nlohmann::json::object();
  for (auto it = value.begin(); it != value.end(); ++it) {
    const AttributeDef* sub = def.find_sub(it.key());
    if (sub == nullptr || sub->mutability == Mutability::kReadOnly || is_empty(it.value())) {
      continue;
    }
    ALLOT_ASSIGN_OR_RETURN(nlohmann::json normalized,
                           normalize_single(*sub, it.value(), where + "." + sub->name));
    out[sub->name] = std::move(normalized);
  }
  return out;
}

Result<nlohmann::json> normalize_single(const AttributeDef& def, const nlohmann::json& value,
                                        const std::string& where) {
  switch (def.type) {
    case AttributeType::kComplex: return normalize_complex(def, value, where);
    case AttributeType::kBoolean:
      if (value.is_boolean()) return value;
      if (value.is_string() && iequals(value.get_ref<const std::string&>(), "true"))
        return json_true();
      if (value.is_string() && iequals(value.get_ref<const std::string&>(), "false"))
        return json_false();
      return bad_value(where, "expected a boolean");
    case AttributeType::kInteger:
      if (value.is_number_integer()) return value;
      return bad_value(where, "expected an integer");
    case AttributeType::kDecimal:
      if (value.is_number()) return value;
      return bad_value(where, "expected a number");
    default:
      if (value.is_string()) return value;
      return bad_value(where, "expected a string");
  }
}

// A multi-valued attribute is an array (a single value becomes one); empty
// values inside are dropped.
Result<nlohmann::json> normalize_attribute(const AttributeDef& def, const nlohmann::json& value,
                                           const std::string& where) {
  if (!def.multi_valued) {
    if (value.is_array()) return bad_value(where, "expected a single value, not an array");
    return normalize_single(def, value, where);
  }
  const nlohmann::json values = value.is_array() ? value : nlohmann::json::array({value});
  nlohmann::json out = nlohmann::json::array();
  for (size_t i = 0; i < values.size(); ++i) {
    if (is_empty(values[i])) continue;
    ALLOT_ASSIGN_OR_RETURN(nlohmann::json one,
                           normalize_single(def, values[i], where + "[" + std::to_string(i) + "]"));
    if (!is_empty(one)) out.push_back(std::move(one));
  }
  return out;
}

// Normalizes the members of `body` that `find` knows into `out`.
template <typename Find>
Status normalize_members(const nlohmann::json& body, const Find& find, const std::string& prefix,
                         nlohmann::json& out) {
  for (auto it = body.begin(); it != body.end(); ++it) {
    const AttributeDef* def = find(it.key());
    if (def == nullptr || def->mutability == Mutability::kReadOnly ||
        def->mutability == Mutability::kWriteOnly || is_empty(it.value())) {
      continue;
    }
    ALLOT_ASSIGN_OR_RETURN(nlohmann::json value,
                           normalize_attribute(*def, it.value(), prefix + def->name));
    if (!is_empty(value)) out[def->name] = std::move(value);
  }
  return {};
}

Status check_required(ResourceKind kind, const nlohmann::json& resource) {
  const std::string_view name = kind == ResourceKind::kUser ? "userName" : "displayName";
  const nlohmann::json* value = find_member(resource, name);
  if (value == nullptr || !value->is_string() || value->get_ref<const std::string&>().empty()) {
    return bad_value(std::string(name), "required, a non-empty string");
  }
  return {};
}

Status take_password(const nlohmann::json& body, NormalizedResource& out) {
  const nlohmann::json* password = find_member(body, "password");
  if (password == nullptr || password->is_null()) return {};
  if (!password->is_string()) return bad_value("password", "expected a string");
  out.password = password->get<std::string>();
  return {};
}

}  // namespace

Status check_not_reserved(ResourceKind kind, const nlohmann::json& resource) {
  const std::string_view name = kind == ResourceKind::kUser ? "userName" : "displayName";
  const nlohmann::json* value = find_member(resource, name);
  if (value != nullptr && value->is_string() &&
      is_reserved_name(value->get_ref<const std::string&>())) {
    return bad_value(std::string(name), "names starting with \"" +
                                            std::string(kReservedNamePrefix) +
                                            "\" are reserved for allot itself");
  }
  return {};
}

bool nested_deeper_than(const nlohmann::json& value, int limit) {
  if (!value.is_structured()) return false;
  if (limit <= 0) return true;
  for (const nlohmann::json& item : value) {
    if (nested_deeper_than(item, limit - 1)) return true;
  }
  return false;
}

Result<NormalizedResource> normalize_resource(ResourceKind kind, const nlohmann::json& body) {
  if (!body.is_object()) {
    return scim_error(ScimType::kInvalidSyntax, "a resource must be a JSON object");
  }
  if (nested_deeper_than(body, kMaxValueDepth)) {
    return scim_error(ScimType::kInvalidSyntax, "a resource nested deeper than " +
                                                    std::to_string(kMaxValueDepth) + " levels");
  }
  const SchemaDef& core = core_schema(kind);
  NormalizedResource out;
  out.resource = nlohmann::json::object();
  out.resource["schemas"] = {core.id};
  const auto find_core = [&core](std::string_view name) -> const AttributeDef* {
    for (const AttributeDef& common : common_attributes()) {
      if (iequals(common.name, name)) return &common;
    }
    return core.find(name);
  };
  ALLOT_RETURN_IF_ERROR(normalize_members(body, find_core, "", out.resource));
  for (const SchemaDef* extension : extension_schemas(kind)) {
    const nlohmann::json* part = find_member(body, extension->id);
    if (part == nullptr || part->is_null()) continue;
    if (!part->is_object()) return bad_value(extension->id, "expected an object");
    nlohmann::json normalized = nlohmann::json::object();
    const auto find_extension = [extension](std::string_view name) {
      return extension->find(name);
    };
    ALLOT_RETURN_IF_ERROR(
        normalize_members(*part, find_extension, extension->id + ":", normalized));
    if (normalized.empty()) continue;
    out.resource[extension->id] = std::move(normalized);
    out.resource["schemas"].push_back(extension->id);
  }
  ALLOT_RETURN_IF_ERROR(check_required(kind, out.resource));
  if (kind == ResourceKind::kUser) ALLOT_RETURN_IF_ERROR(take_password(body, out));
  return out;
}

}  // namespace allot::scim
