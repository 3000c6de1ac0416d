// PATCH (scim_patch.h): the request is read into operations, each applied to
// a copy of the resource by a Patcher, and the copy is normalized at the end.
#include "identity/scim/scim_patch.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "identity/scim/scim_error.h"
#include "identity/scim/scim_filter.h"
#include "identity/scim/scim_names.h"
#include "identity/scim/scim_resource.h"

namespace allot::scim {
namespace {

enum class OpKind { kAdd, kReplace, kRemove };

using json = nlohmann::json;

Status no_target(std::string why) { return scim_error(ScimType::kNoTarget, std::move(why)); }
Status bad_value(std::string why) { return scim_error(ScimType::kInvalidValue, std::move(why)); }

// Two values of a multi-valued attribute are the same value when their
// "value" sub-attributes are equal (a scalar stands for its own "value":
// {"value":"u1"} and "u1" are the same member), or else when they are equal
// JSON. This key is equal exactly when the values are the same, so that adding
// or removing thousands of members (Entra adds a group's members in one
// request) is a hash lookup per value, not a scan.
std::string value_key(const json& item) {
  const json* value = item.is_object() ? find_member(item, "value") : &item;
  return value != nullptr ? "v" + value->dump() : "o" + item.dump();
}

// Merges `from`'s members into `into`, replacing `into` if it is not an object.
void merge_object(json& into, const json& from) {
  if (!into.is_object()) into = json::object();
  for (auto it = from.begin(); it != from.end(); ++it) {
    erase_member(into, it.key());
    into[it.key()] = it.value();
  }
}

bool is_read_only(const ResolvedAttribute& resolved) {
  return resolved.attribute->mutability == Mutability::kReadOnly ||
         (resolved.sub_attribute != nullptr &&
          resolved.sub_attribute->mutability == Mutability::kReadOnly);
}

json as_array(const json& value) { return value.is_array() ? value : json::array({value}); }

// The element a value path's filter describes, when it is `a eq v [and ...]`
// on plain sub-attributes; std::nullopt otherwise.
std::optional<json> element_from_filter(const FilterNode& filter, const AttributeDef& attribute) {
  std::vector<const FilterNode*> terms;
  if (filter.kind == FilterNode::Kind::kAnd) {
    for (const FilterNode& child : filter.children) terms.push_back(&child);
  } else {
    terms.push_back(&filter);
  }
  json element = json::object();
  for (const FilterNode* term : terms) {
    if (term->kind != FilterNode::Kind::kCompare || term->op != CompareOp::kEq ||
        term->value.is_null() || !term->path.sub_attribute.empty() || !term->path.schema.empty()) {
      return std::nullopt;
    }
    const AttributeDef* sub = attribute.find_sub(term->path.attribute);
    if (sub == nullptr) return std::nullopt;
    element[sub->name] = term->value;
  }
  return element;
}

class Patcher {
 public:
  Patcher(ResourceKind kind, json& document) : kind_(kind), document_(document) {}

  Status apply(OpKind op, const PatchPath& path, const json* value);
  Status apply_pathless(OpKind op, const json* value);

 private:
  Status apply_plain(OpKind op, const AttributeDef& def, json& container, const json* value);
  Status apply_sub(OpKind op, const AttributeDef& def, const AttributeDef& sub, json& container,
                   const json* value);
  Status apply_filtered(OpKind op, const PatchPath& path, const AttributeDef& def, json& container,
                        const json* value);
  Status apply_to_extension(OpKind op, const SchemaDef& extension, const json* value);
  Status check_read_only(OpKind op, const PatchPath& path, const ResolvedAttribute& resolved,
                         const json* value) const;
  json& container_for(const ResolvedAttribute& resolved);

  ResourceKind kind_;
  json& document_;
};

json& Patcher::container_for(const ResolvedAttribute& resolved) {
  if (resolved.extension == nullptr) return document_;
  json* part = find_member(document_, resolved.extension->id);
  if (part == nullptr || !part->is_object()) {
    erase_member(document_, resolved.extension->id);
    document_[resolved.extension->id] = json::object();
    part = &document_[resolved.extension->id];
  }
  return *part;
}

Status Patcher::check_read_only(OpKind op, const PatchPath& path, const ResolvedAttribute& resolved,
                                const json* value) const {
  if (!is_read_only(resolved)) return {};
  if (op != OpKind::kRemove && value != nullptr && !path.value_filter) {
    const json* current = find_member(document_, resolved.attribute->name);
    if (current != nullptr && resolved.sub_attribute != nullptr) {
      current = find_member(*current, resolved.sub_attribute->name);
    }
    if (current != nullptr && *current == *value) return {};  // the current value, sent again
  }
  return scim_error(ScimType::kMutability,
                    path.attribute.to_string() + " is read-only and cannot be changed");
}

Status Patcher::apply(OpKind op, const PatchPath& path, const json* value) {
  if (op != OpKind::kRemove && value == nullptr) return bad_value("add and replace need a value");
  const std::optional<ResolvedAttribute> resolved = resolve_attribute(kind_, path.attribute);
  if (!resolved) {
    return scim_error(ScimType::kInvalidPath,
                      "no attribute " + quote_input(path.attribute.to_string()) + " in the " +
                          std::string(resource_type_name(kind_)) + " schemas");
  }
  if (resolved->attribute == nullptr) return apply_to_extension(op, *resolved->extension, value);
  ALLOT_RETURN_IF_ERROR(check_read_only(op, path, *resolved, value));
  if (is_read_only(*resolved)) return {};  // the current value, sent again
  json& container = container_for(*resolved);
  if (path.value_filter) return apply_filtered(op, path, *resolved->attribute, container, value);
  if (resolved->sub_attribute != nullptr) {
    return apply_sub(op, *resolved->attribute, *resolved->sub_attribute, container, value);
  }
  return apply_plain(op, *resolved->attribute, container, value);
}

Status Patcher::apply_plain(OpKind op, const AttributeDef& def, json& container,
                            const json* value) {
  json* current = find_member(container, def.name);
  if (op == OpKind::kRemove) {
    if (value == nullptr || value->is_null() || !def.multi_valued || current == nullptr ||
        !current->is_array()) {
      erase_member(container, def.name);
      return {};
    }
    // Entra: {"op":"remove","path":"members","value":[{"value":"id"}]}.
    std::unordered_set<std::string> gone;
    for (const json& item : as_array(*value)) gone.insert(value_key(item));
    json kept = json::array();
    for (json& item : *current) {
      if (!gone.contains(value_key(item))) kept.push_back(std::move(item));
    }
    *current = std::move(kept);
    return {};
  }
  if (def.multi_valued && (op == OpKind::kAdd) && current != nullptr && current->is_array()) {
    std::unordered_map<std::string, size_t> position;
    for (size_t i = 0; i < current->size(); ++i) position.emplace(value_key((*current)[i]), i);
    for (const json& item : as_array(*value)) {
      const auto [same, added] = position.emplace(value_key(item), current->size());
      if (added) {
        current->push_back(item);
      } else if ((*current)[same->second].is_object() && item.is_object()) {
        merge_object((*current)[same->second], item);
      }
    }
    return {};
  }
  if (def.type == AttributeType::kComplex && !def.multi_valued && value->is_object() &&
      current != nullptr) {
    merge_object(*current, *value);
    return {};
  }
  erase_member(container, def.name);
  container[def.name] = def.multi_valued ? as_array(*value) : *value;
  return {};
}

Status Patcher::apply_sub(OpKind op, const AttributeDef& def, const AttributeDef& sub,
                          json& container, const json* value) {
  json* current = find_member(container, def.name);
  if (!def.multi_valued) {
    if (op == OpKind::kRemove) {
      if (current != nullptr) erase_member(*current, sub.name);
      return {};
    }
    if (current == nullptr || !current->is_object()) {
      erase_member(container, def.name);
      container[def.name] = json::object();
      current = &container[def.name];
    }
    erase_member(*current, sub.name);
    (*current)[sub.name] = *value;
    return {};
  }
  // "emails.value": every value of the attribute.
  if (current == nullptr || !current->is_array() || current->empty()) {
    if (op == OpKind::kRemove) return {};
    return no_target(def.name + " has no values whose " + sub.name + " could be set");
  }
  for (json& item : *current) {
    if (!item.is_object()) continue;
    erase_member(item, sub.name);
    if (op != OpKind::kRemove) item[sub.name] = *value;
  }
  return {};
}

Status Patcher::apply_filtered(OpKind op, const PatchPath& path, const AttributeDef& def,
                               json& container, const json* value) {
  if (!def.multi_valued) {
    return scim_error(
        ScimType::kInvalidPath,
        "a value filter needs a multi-valued attribute, and " + def.name + " is single-valued");
  }
  const FilterNode& filter = *path.value_filter;
  const std::string& sub = path.attribute.sub_attribute;
  json* current = find_member(container, def.name);
  json kept = json::array();
  bool matched = false;
  if (current != nullptr && current->is_array()) {
    for (json& item : *current) {
      // An earlier operation of the request may have left a scalar here.
      if (!item.is_object() || !value_matches(filter, item, &def)) {
        kept.push_back(std::move(item));
        continue;
      }
      matched = true;
      if (op == OpKind::kRemove && sub.empty()) continue;
      if (op == OpKind::kRemove) {
        erase_member(item, sub);
      } else if (!sub.empty()) {
        erase_member(item, sub);
        item[def.find_sub(sub) != nullptr ? def.find_sub(sub)->name : sub] = *value;
      } else if (!value->is_object()) {
        return bad_value("a value path without a sub-attribute needs an object value");
      } else if (op == OpKind::kAdd) {
        merge_object(item, *value);
      } else {
        item = *value;
      }
      kept.push_back(std::move(item));
    }
  }
  if (!matched && op != OpKind::kRemove) {
    std::optional<json> element = element_from_filter(filter, def);
    if (!element) return no_target("no value of " + def.name + " matches the filter");
    if (!sub.empty()) {
      (*element)[def.find_sub(sub) != nullptr ? def.find_sub(sub)->name : sub] = *value;
    } else if (value->is_object()) {
      merge_object(*element, *value);
    }
    kept.push_back(std::move(*element));
  }
  erase_member(container, def.name);
  container[def.name] = std::move(kept);
  return {};
}

Status Patcher::apply_to_extension(OpKind op, const SchemaDef& extension, const json* value) {
  if (op == OpKind::kRemove) {
    erase_member(document_, extension.id);
    return {};
  }
  if (!value->is_object()) return bad_value(extension.id + " needs an object value");
  if (op == OpKind::kReplace) erase_member(document_, extension.id);
  for (auto it = value->begin(); it != value->end(); ++it) {
    ALLOT_ASSIGN_OR_RETURN(PatchPath path, parse_patch_path(extension.id + ":" + it.key()));
    ALLOT_RETURN_IF_ERROR(apply(op, path, &it.value()));
  }
  return {};
}

Status Patcher::apply_pathless(OpKind op, const json* value) {
  if (op == OpKind::kRemove) return no_target("remove needs a path");
  if (value == nullptr || !value->is_object()) {
    return bad_value("add and replace without a path need an object value");
  }
  for (auto it = value->begin(); it != value->end(); ++it) {
    if (iequals(it.key(), "schemas")) continue;
    ALLOT_ASSIGN_OR_RETURN(PatchPath path, parse_patch_path(it.key()));
    ALLOT_RETURN_IF_ERROR(apply(op, path, &it.value()));
  }
  return {};
}

Result<OpKind> parse_op(const json& operation) {
  const json* op = find_member(operation, "op");
  if (op == nullptr || !op->is_string()) {
    return scim_error(ScimType::kInvalidSyntax, "an operation needs \"op\"");
  }
  const std::string& name = op->get_ref<const std::string&>();
  if (iequals(name, "add")) return OpKind::kAdd;
  if (iequals(name, "replace")) return OpKind::kReplace;
  if (iequals(name, "remove")) return OpKind::kRemove;
  return scim_error(ScimType::kInvalidSyntax,
                    "unknown op " + quote_input(name) + " (add, replace or remove)");
}

Status apply_operation(Patcher& patcher, const json& operation) {
  if (!operation.is_object()) {
    return scim_error(ScimType::kInvalidSyntax, "an operation must be an object");
  }
  ALLOT_ASSIGN_OR_RETURN(OpKind op, parse_op(operation));
  const json* value = find_member(operation, "value");
  const json* path = find_member(operation, "path");
  if (path == nullptr || path->is_null()) return patcher.apply_pathless(op, value);
  if (!path->is_string()) return scim_error(ScimType::kInvalidPath, "\"path\" must be a string");
  ALLOT_ASSIGN_OR_RETURN(PatchPath parsed, parse_patch_path(path->get_ref<const std::string&>()));
  return patcher.apply(op, parsed, value);
}

// The same error with "Operations[i]" in front of its location.
Status in_operation(const Status& status, size_t index) {
  const std::string where = "Operations[" + std::to_string(index) + "]";
  const std::string location = scim_error_location(status);
  const std::optional<ScimType> type = scim_type_of(status);
  if (!type) return status.with_context(where);
  return scim_error(*type, status.message(), location.empty() ? where : where + " " + location);
}

}  // namespace

Result<PatchResult> apply_patch(ResourceKind kind, const nlohmann::json& resource,
                                const nlohmann::json& request) {
  if (nested_deeper_than(request, kMaxValueDepth)) {
    return scim_error(ScimType::kInvalidSyntax, "a PATCH body nested deeper than " +
                                                    std::to_string(kMaxValueDepth) + " levels");
  }
  const json* operations = find_member(request, "Operations");
  if (operations == nullptr || !operations->is_array()) {
    return scim_error(ScimType::kInvalidSyntax,
                      "a PATCH body is a PatchOp message with an \"Operations\" array");
  }
  json document = resource;
  Patcher patcher(kind, document);
  for (size_t i = 0; i < operations->size(); ++i) {
    const Status applied = apply_operation(patcher, (*operations)[i]);
    if (!applied.ok()) return in_operation(applied, i);
  }
  Result<NormalizedResource> normalized = normalize_resource(kind, document);
  if (!normalized.ok()) return normalized.status();
  PatchResult result{std::move(normalized->resource), std::move(normalized->password)};
  for (const char* kept : {"id", "meta"}) {
    if (const json* value = find_member(resource, kept)) result.resource[kept] = *value;
  }
  return result;
}

}  // namespace allot::scim
