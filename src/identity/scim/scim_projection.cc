#include "identity/scim/scim_projection.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "identity/scim/scim_attribute_path.h"
#include "identity/scim/scim_names.h"

namespace allot::scim {
namespace {

using json = nlohmann::json;

std::vector<std::string> split_list(std::string_view text) {
  std::vector<std::string> names;
  while (!text.empty()) {
    const size_t comma = text.find(',');
    std::string_view name = text.substr(0, comma);
    while (!name.empty() && name.front() == ' ') name.remove_prefix(1);
    while (!name.empty() && name.back() == ' ') name.remove_suffix(1);
    if (!name.empty()) names.emplace_back(name);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return names;
}

// The object of `resource` that holds `path`'s attribute (the resource or an
// extension's object), and the key of that object in the resource ("" for the
// resource itself).
struct Holder {
  const json* object = nullptr;
  std::string key;
};

Holder holder_of(const json& resource, const AttributePath& path) {
  if (path.schema.empty() || iequals(path.schema, kUserSchema) ||
      iequals(path.schema, kGroupSchema)) {
    return {&resource, ""};
  }
  for (auto it = resource.begin(); it != resource.end(); ++it) {
    if (iequals(it.key(), path.schema)) return {&it.value(), it.key()};
  }
  return {};
}

json* target_object(json& out, const Holder& holder) {
  if (holder.key.empty()) return &out;
  if (!out.contains(holder.key)) out[holder.key] = json::object();
  return &out[holder.key];
}

// Copies only `sub` of a complex value (or of each value of a multi-valued one).
json only_sub(const json& value, std::string_view sub) {
  const auto pick = [sub](const json& item) {
    json picked = json::object();
    if (!item.is_object()) return picked;
    for (auto it = item.begin(); it != item.end(); ++it) {
      if (iequals(it.key(), sub)) picked[it.key()] = it.value();
    }
    return picked;
  };
  if (!value.is_array()) return pick(value);
  json out = json::array();
  for (const json& item : value) out.push_back(pick(item));
  return out;
}

void include(const json& resource, const AttributePath& path, json& out) {
  const Holder holder = holder_of(resource, path);
  if (holder.object == nullptr) return;
  if (path.attribute.empty()) {
    out[holder.key] = *holder.object;
    return;
  }
  for (auto it = holder.object->begin(); it != holder.object->end(); ++it) {
    if (!iequals(it.key(), path.attribute)) continue;
    json* target = target_object(out, holder);
    (*target)[it.key()] =
        path.sub_attribute.empty() ? it.value() : only_sub(it.value(), path.sub_attribute);
  }
}

void exclude(json& out, const AttributePath& path) {
  if (path.attribute.empty() && !path.schema.empty()) {
    erase_member(out, path.schema);
    return;
  }
  if (iequals(path.attribute, "id") || iequals(path.attribute, "schemas")) return;
  const Holder holder = holder_of(out, path);
  if (holder.object == nullptr) return;
  json* object = holder.key.empty() ? &out : &out[holder.key];
  if (path.sub_attribute.empty()) {
    erase_member(*object, path.attribute);
    return;
  }
  json* value = find_member(*object, path.attribute);
  if (value == nullptr) return;
  if (value->is_array()) {
    for (json& item : *value) erase_member(item, path.sub_attribute);
  } else {
    erase_member(*value, path.sub_attribute);
  }
}

}  // namespace

AttributeSelection AttributeSelection::from_parameters(std::string_view attributes,
                                                       std::string_view excluded_attributes) {
  return {split_list(attributes), split_list(excluded_attributes)};
}

nlohmann::json project(const nlohmann::json& resource, const AttributeSelection& selection) {
  if (!resource.is_object()) return resource;
  if (selection.attributes.empty()) {
    // Whole top-level attributes are left out as the copy is made, so that
    // excludedAttributes=members never copies a large group's members.
    std::vector<AttributePath> rest;
    std::vector<std::string> skipped;
    for (const std::string& name : selection.excluded_attributes) {
      Result<AttributePath> path = parse_attribute_path(name);
      if (!path.ok()) continue;
      const bool whole = path->sub_attribute.empty() && !path->attribute.empty() &&
                         holder_of(resource, *path).key.empty() &&
                         holder_of(resource, *path).object != nullptr;
      if (whole && !iequals(path->attribute, "id") && !iequals(path->attribute, "schemas")) {
        skipped.push_back(path->attribute);
      } else {
        rest.push_back(std::move(path).value());
      }
    }
    json out = json::object();
    for (auto it = resource.begin(); it != resource.end(); ++it) {
      const bool left_out = std::any_of(skipped.begin(), skipped.end(), [&it](const auto& name) {
        return iequals(it.key(), name);
      });
      if (!left_out) out[it.key()] = it.value();
    }
    for (const AttributePath& path : rest) exclude(out, path);
    return out;
  }
  json out = json::object();
  for (const char* always : {"schemas", "id"}) {
    if (const json* value = find_member(resource, always)) out[always] = *value;
  }
  for (const std::string& name : selection.attributes) {
    const Result<AttributePath> path = parse_attribute_path(name);
    if (path.ok()) include(resource, *path, out);
  }
  return out;
}

}  // namespace allot::scim
