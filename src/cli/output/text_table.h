// TextTable: aligned plain-text tables for people (`allot simulate`,
// `allot get`, `allot top`, `allot describe`).
//
// Contract: a header row and data rows of strings; columns are as wide as
// their widest cell, separated by two spaces. With kNumbersRight (the
// default) the first column is aligned left and the others right (they hold
// numbers); with kLeft every column is aligned left, as kubectl's listings
// of objects are (`allot get`). Rows shorter than the header are padded with
// empty cells. Value type.
#pragma once

#include <string>
#include <vector>

namespace allot::cli {

class TextTable {
 public:
  enum class Alignment { kNumbersRight, kLeft };

  explicit TextTable(std::vector<std::string> header,
                     Alignment alignment = Alignment::kNumbersRight)
      : header_(std::move(header)), alignment_(alignment) {}

  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  [[nodiscard]] std::string render() const;

 private:
  std::vector<std::string> header_;
  Alignment alignment_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace allot::cli
