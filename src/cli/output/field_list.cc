#include "cli/output/field_list.h"

#include <algorithm>
#include <sstream>

namespace allot::cli {

void FieldList::add(std::string label, std::string value) {
  if (value.empty()) value = "<none>";
  fields_.emplace_back(std::move(label), std::move(value));
}

void FieldList::add_if_set(std::string label, std::string value) {
  if (!value.empty()) fields_.emplace_back(std::move(label), std::move(value));
}

std::string FieldList::render(size_t indent) const {
  size_t width = 0;
  for (const auto& field : fields_) width = std::max(width, field.first.size());
  std::string out;
  for (const auto& [label, value] : fields_) {
    out.append(indent, ' ').append(label).append(":");
    out.append(width - label.size() + 2, ' ').append(value).append("\n");
  }
  return out;
}

std::string indented(const std::string& text, size_t indent) {
  std::istringstream lines(text);
  std::string line;
  std::string out;
  while (std::getline(lines, line)) {
    out += line.empty() ? "\n" : std::string(indent, ' ') + line + "\n";
  }
  return out;
}

}  // namespace allot::cli
