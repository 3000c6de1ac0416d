#include "api/document_label.h"

#include <optional>

namespace allot {

std::string scalar_at(const DocNode& node, std::string_view key) {
  const std::optional<DocNode> value = node.find(key);
  return value && value->is_scalar() ? value->scalar() : std::string();
}

std::string document_label(const DocNode& document, size_t number, std::string_view source) {
  std::string label = source.empty() ? "" : std::string(source) + ": ";
  label += "document " + std::to_string(number);
  const std::string kind = scalar_at(document, "kind");
  const std::string name = scalar_at(document.find("metadata").value_or(DocNode()), "name");
  if (!kind.empty() || !name.empty()) {
    label += " (" + kind + (kind.empty() || name.empty() ? "" : "/") + name + ")";
  }
  return label;
}

Status located(const Status& status, const std::string& label) {
  const std::string& field = status.details();
  return {status.code(), status.message(), field.empty() ? label : label + ": " + field};
}

}  // namespace allot
