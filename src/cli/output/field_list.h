// FieldList: the "Label:  value" blocks of `allot describe`, labels padded
// so that the values line up.
//
// Contract: add() keeps the order; render() writes one line per field at the
// given indent, values starting two columns after the longest label's colon.
// Empty values are shown as "<none>" unless skipped with add_if_set(). Value
// type.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace allot::cli {

class FieldList {
 public:
  void add(std::string label, std::string value);
  // Adds the field only when `value` is not empty.
  void add_if_set(std::string label, std::string value);
  [[nodiscard]] std::string render(size_t indent = 0) const;

 private:
  std::vector<std::pair<std::string, std::string>> fields_;
};

// Every line of `text` prefixed with `indent` spaces.
std::string indented(const std::string& text, size_t indent);

}  // namespace allot::cli
