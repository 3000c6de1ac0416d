#include "api/doc_node.h"

namespace allot {
namespace {

using nlohmann::json;

DocNode::Type yaml_type(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map: return DocNode::Type::kMap;
    case YAML::NodeType::Sequence: return DocNode::Type::kSequence;
    case YAML::NodeType::Scalar: return DocNode::Type::kScalar;
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined: break;
  }
  return DocNode::Type::kNull;
}

DocNode::Type json_type(const json& value) {
  switch (value.type()) {
    case json::value_t::object: return DocNode::Type::kMap;
    case json::value_t::array: return DocNode::Type::kSequence;
    case json::value_t::string:
    case json::value_t::boolean:
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float: return DocNode::Type::kScalar;
    case json::value_t::null:
    case json::value_t::binary:
    case json::value_t::discarded: break;
  }
  return DocNode::Type::kNull;
}

}  // namespace

DocNode::Type DocNode::type() const {
  if (const auto* yaml = std::get_if<YAML::Node>(&node_)) return yaml_type(*yaml);
  if (const auto* value = std::get_if<const json*>(&node_)) return json_type(**value);
  return Type::kNull;
}

std::string_view DocNode::type_name() const {
  switch (type()) {
    case Type::kMap: return "a map";
    case Type::kSequence: return "a list";
    case Type::kScalar: return "a scalar";
    case Type::kNull: break;
  }
  return "null";
}

std::string DocNode::scalar() const {
  if (const auto* yaml = std::get_if<YAML::Node>(&node_)) return yaml->Scalar();
  const json& value = *std::get<const json*>(node_);
  return value.is_string() ? value.get_ref<const std::string&>() : value.dump();
}

std::vector<DocNode> DocNode::elements() const {
  std::vector<DocNode> out;
  if (!is_sequence()) return out;
  if (const auto* yaml = std::get_if<YAML::Node>(&node_)) {
    out.reserve(yaml->size());
    for (const YAML::Node& item : *yaml) out.emplace_back(item);
    return out;
  }
  const json& value = *std::get<const json*>(node_);
  out.reserve(value.size());
  for (const json& item : value) out.emplace_back(item);
  return out;
}

std::vector<DocNode::Entry> DocNode::entries() const {
  std::vector<Entry> out;
  if (!is_map()) return out;
  if (const auto* yaml = std::get_if<YAML::Node>(&node_)) {
    for (const auto& entry : *yaml) {
      const bool scalar_key = entry.first.IsScalar();
      out.push_back({scalar_key ? entry.first.Scalar() : std::string(), scalar_key,
                     DocNode(entry.first), DocNode(entry.second)});
    }
    return out;
  }
  const json& value = *std::get<const json*>(node_);
  out.reserve(value.size());
  for (const auto& [key, item] : value.items())
    out.push_back({key, true, DocNode(), DocNode(item)});
  return out;
}

std::optional<DocNode> DocNode::find(std::string_view key) const {
  if (!is_map()) return std::nullopt;
  if (const auto* yaml = std::get_if<YAML::Node>(&node_)) {
    // Not operator[]: it would convert every key, and insert into the node.
    for (const auto& entry : *yaml) {
      if (entry.first.IsScalar() && entry.first.Scalar() == key) {
        if (entry.second.IsNull()) return std::nullopt;
        return DocNode(entry.second);
      }
    }
    return std::nullopt;
  }
  const json& value = *std::get<const json*>(node_);
  const auto it = value.find(key);
  if (it == value.end() || it->is_null()) return std::nullopt;
  return DocNode(*it);
}

std::string DocNode::position() const {
  const auto* yaml = std::get_if<YAML::Node>(&node_);
  if (yaml == nullptr) return {};
  const YAML::Mark mark = yaml->Mark();
  if (mark.is_null()) return {};
  return " (line " + std::to_string(mark.line + 1) + ", column " + std::to_string(mark.column + 1) +
         ")";
}

}  // namespace allot
