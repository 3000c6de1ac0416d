// DocNode: one node of a manifest document, read the same way whether the
// text was YAML (a yaml-cpp node, which knows its line and column) or one
// JSON object (an nlohmann::json value: the API's request bodies, decoded
// without building yaml-cpp nodes, which cost most of a submit).
//
// Contract: YAML's view of values. A JSON string, number or boolean is a
// scalar whose text is the string itself, or the number or boolean as JSON
// writes it ("2", "0.5", "true"); JSON null is null. Map keys of JSON are
// unique and sorted; those of YAML keep the document's order and may repeat
// (MapReader rejects repeats). position() is " (line L, column C)" for a
// YAML node with a mark, empty otherwise.
//
// A DocNode over JSON refers to a value it does not own: the json must
// outlive it. Copies of a YAML DocNode share the node: use them within one
// thread. Nothing here throws for nodes of a successful YAML::Load.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

namespace allot {

class DocNode {
 public:
  enum class Type { kNull, kScalar, kSequence, kMap };

  struct Entry;

  DocNode() = default;  // null
  explicit DocNode(const YAML::Node& node) : node_(node) {}
  explicit DocNode(const nlohmann::json& json) : node_(&json) {}

  [[nodiscard]] Type type() const;
  [[nodiscard]] bool is_null() const { return type() == Type::kNull; }
  [[nodiscard]] bool is_scalar() const { return type() == Type::kScalar; }
  [[nodiscard]] bool is_sequence() const { return type() == Type::kSequence; }
  [[nodiscard]] bool is_map() const { return type() == Type::kMap; }
  // "a map", "a list", "a scalar", "null": for error messages.
  [[nodiscard]] std::string_view type_name() const;

  // The text of a scalar. REQUIRES: is_scalar().
  [[nodiscard]] std::string scalar() const;
  // The elements of a sequence (none for anything else).
  [[nodiscard]] std::vector<DocNode> elements() const;
  // The entries of a map in its order (none for anything else).
  [[nodiscard]] std::vector<Entry> entries() const;
  // The value under `key` of a map; nullopt when absent, null, or not a map.
  [[nodiscard]] std::optional<DocNode> find(std::string_view key) const;

  [[nodiscard]] std::string position() const;

 private:
  std::variant<std::monostate, YAML::Node, const nlohmann::json*> node_;
};

struct DocNode::Entry {
  std::string key;     // the key's text; empty when the key is not a scalar
  bool key_is_scalar;  // YAML allows maps and lists as keys; allot does not
  DocNode key_node;    // for the key's position
  DocNode value;
};

}  // namespace allot
