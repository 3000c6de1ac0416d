// Writing filters back and evaluating them (scim_filter.h).
#include <string>
#include <vector>

#include "identity/scim/scim_filter.h"
#include "identity/scim/scim_names.h"

namespace allot::scim {
namespace {

std::string_view operator_name(CompareOp op) {
  switch (op) {
    case CompareOp::kEq: return "eq";
    case CompareOp::kNe: return "ne";
    case CompareOp::kCo: return "co";
    case CompareOp::kSw: return "sw";
    case CompareOp::kEw: return "ew";
    case CompareOp::kGt: return "gt";
    case CompareOp::kGe: return "ge";
    case CompareOp::kLt: return "lt";
    case CompareOp::kLe: return "le";
    case CompareOp::kPr: return "pr";
  }
  return "pr";
}

std::string operand_to_string(const FilterNode& operand) {
  const bool group =
      operand.kind == FilterNode::Kind::kAnd || operand.kind == FilterNode::Kind::kOr;
  return group ? "(" + filter_to_string(operand) + ")" : filter_to_string(operand);
}

// Where a path's values live: one value of a multi-valued attribute, the
// resource, or the resource's extension object.
struct Scope {
  const nlohmann::json* object = nullptr;
  ResourceKind kind = ResourceKind::kUser;
  const AttributeDef* parent = nullptr;  // set inside a value path
};

struct PathDefs {
  const AttributeDef* attribute = nullptr;
  const AttributeDef* leaf = nullptr;  // what a comparison compares against
};

PathDefs defs_for(const AttributePath& path, const Scope& scope) {
  PathDefs defs;
  if (scope.parent != nullptr) {
    defs.attribute = scope.parent->find_sub(path.attribute);
    defs.leaf = path.sub_attribute.empty() ? defs.attribute : nullptr;
    return defs;
  }
  const std::optional<ResolvedAttribute> resolved = resolve_attribute(scope.kind, path);
  if (!resolved) return defs;
  defs.attribute = resolved->attribute;
  defs.leaf = resolved->sub_attribute != nullptr ? resolved->sub_attribute : resolved->attribute;
  if (defs.leaf != nullptr && defs.leaf->type == AttributeType::kComplex) {
    defs.leaf = defs.leaf->find_sub("value");
  }
  return defs;
}

// The attribute's raw value (before any sub-attribute), or nullptr.
const nlohmann::json* raw_value(const AttributePath& path, const Scope& scope) {
  const nlohmann::json* container = scope.object;
  if (scope.parent == nullptr && !path.schema.empty() &&
      !iequals(path.schema, core_schema(scope.kind).id)) {
    container = find_member(*scope.object, path.schema);
    if (container == nullptr) return nullptr;
  }
  return find_member(*container, path.attribute);
}

void add_leaf(const nlohmann::json& value, std::string_view sub,
              std::vector<const nlohmann::json*>& out) {
  if (!sub.empty()) {
    if (const nlohmann::json* member = find_member(value, sub)) {
      if (member->is_array()) {
        for (const nlohmann::json& item : *member) out.push_back(&item);
      } else {
        out.push_back(member);
      }
    }
    return;
  }
  if (value.is_object()) {
    if (const nlohmann::json* member = find_member(value, "value")) out.push_back(member);
    return;
  }
  out.push_back(&value);
}

// Every value a comparison looks at: one per value of a multi-valued attribute.
std::vector<const nlohmann::json*> leaf_values(const AttributePath& path, const Scope& scope) {
  std::vector<const nlohmann::json*> out;
  const nlohmann::json* raw = raw_value(path, scope);
  if (raw == nullptr) return out;
  if (raw->is_array()) {
    for (const nlohmann::json& item : *raw) add_leaf(item, path.sub_attribute, out);
  } else {
    add_leaf(*raw, path.sub_attribute, out);
  }
  return out;
}

bool is_present(const nlohmann::json& value) {
  if (value.is_null()) return false;
  if (value.is_string()) return !value.get_ref<const std::string&>().empty();
  if (value.is_array() || value.is_object()) return !value.empty();
  return true;
}

bool compare_strings(std::string actual, std::string expected, CompareOp op, bool case_exact) {
  if (!case_exact) {
    actual = ascii_lower(actual);
    expected = ascii_lower(expected);
  }
  switch (op) {
    case CompareOp::kEq: return actual == expected;
    case CompareOp::kCo: return actual.find(expected) != std::string::npos;
    case CompareOp::kSw: return actual.starts_with(expected);
    case CompareOp::kEw: return actual.ends_with(expected);
    case CompareOp::kGt: return actual > expected;
    case CompareOp::kGe: return actual >= expected;
    case CompareOp::kLt: return actual < expected;
    case CompareOp::kLe: return actual <= expected;
    default: return false;
  }
}

bool compare_one(const nlohmann::json& actual, CompareOp op, const nlohmann::json& expected,
                 const AttributeDef* leaf) {
  if (actual.is_string() && expected.is_string()) {
    return compare_strings(actual.get<std::string>(), expected.get<std::string>(), op,
                           leaf != nullptr && leaf->case_exact);
  }
  if (actual.is_boolean() && expected.is_boolean())
    return op == CompareOp::kEq && actual == expected;
  if (actual.is_number() && expected.is_number()) {
    switch (op) {
      case CompareOp::kEq: return actual == expected;
      case CompareOp::kGt: return expected < actual;
      case CompareOp::kGe: return !(actual < expected);
      case CompareOp::kLt: return actual < expected;
      case CompareOp::kLe: return !(expected < actual);
      default: return false;
    }
  }
  return false;
}

bool evaluate(const FilterNode& node, const Scope& scope);

bool evaluate_compare(const FilterNode& node, const Scope& scope) {
  const std::vector<const nlohmann::json*> values = leaf_values(node.path, scope);
  bool present = false;
  if (node.path.sub_attribute.empty()) {
    // A complex attribute is present with any sub-attribute, not only "value".
    const nlohmann::json* raw = raw_value(node.path, scope);
    present = raw != nullptr && is_present(*raw);
  } else {
    for (const nlohmann::json* value : values) present = present || is_present(*value);
  }
  if (node.op == CompareOp::kPr) return present;
  if (node.value.is_null()) {
    if (node.op == CompareOp::kEq) return !present;
    return node.op == CompareOp::kNe && present;
  }
  const CompareOp op = node.op == CompareOp::kNe ? CompareOp::kEq : node.op;
  const PathDefs defs = defs_for(node.path, scope);
  bool any = false;
  for (const nlohmann::json* value : values)
    any = any || compare_one(*value, op, node.value, defs.leaf);
  return node.op == CompareOp::kNe ? !any : any;
}

bool evaluate_value_path(const FilterNode& node, const Scope& scope) {
  const nlohmann::json* raw = raw_value(node.path, scope);
  if (raw == nullptr) return false;
  const PathDefs defs = defs_for(node.path, scope);
  if (raw->is_array()) {
    for (const nlohmann::json& item : *raw) {
      if (value_matches(node.children.front(), item, defs.attribute)) return true;
    }
    return false;
  }
  return raw->is_object() && value_matches(node.children.front(), *raw, defs.attribute);
}

bool evaluate(const FilterNode& node, const Scope& scope) {
  switch (node.kind) {
    case FilterNode::Kind::kCompare: return evaluate_compare(node, scope);
    case FilterNode::Kind::kValuePath: return evaluate_value_path(node, scope);
    case FilterNode::Kind::kNot: return !evaluate(node.children.front(), scope);
    case FilterNode::Kind::kAnd:
      for (const FilterNode& child : node.children) {
        if (!evaluate(child, scope)) return false;
      }
      return true;
    case FilterNode::Kind::kOr:
      for (const FilterNode& child : node.children) {
        if (evaluate(child, scope)) return true;
      }
      return false;
  }
  return false;
}

}  // namespace

std::string filter_to_string(const FilterNode& filter) {
  switch (filter.kind) {
    case FilterNode::Kind::kCompare: {
      std::string text = filter.path.to_string() + " " + std::string(operator_name(filter.op));
      if (filter.op != CompareOp::kPr) text += " " + filter.value.dump();
      return text;
    }
    case FilterNode::Kind::kValuePath:
      return filter.path.to_string() + "[" + filter_to_string(filter.children.front()) + "]";
    case FilterNode::Kind::kNot: return "not (" + filter_to_string(filter.children.front()) + ")";
    case FilterNode::Kind::kAnd:
    case FilterNode::Kind::kOr: {
      const std::string separator = filter.kind == FilterNode::Kind::kAnd ? " and " : " or ";
      std::string text;
      for (const FilterNode& child : filter.children) {
        if (!text.empty()) text += separator;
        text += operand_to_string(child);
      }
      return text;
    }
  }
  return {};
}

bool filter_matches(const FilterNode& filter, const nlohmann::json& resource, ResourceKind kind) {
  return evaluate(filter, Scope{&resource, kind, nullptr});
}

bool value_matches(const FilterNode& filter, const nlohmann::json& element,
                   const AttributeDef* attribute) {
  // A value path inside a value path does not parse, so `kind` is never read.
  static const AttributeDef kUnknown{};
  return evaluate(
      filter, Scope{&element, ResourceKind::kUser, attribute != nullptr ? attribute : &kUnknown});
}

}  // namespace allot::scim
