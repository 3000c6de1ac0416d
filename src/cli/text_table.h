// TextTable: aligned plain-text tables for people (`allot simulate`, later
// `allot get`).
//
// Contract: a header row and data rows of strings; columns are as wide as
// their widest cell, separated by two spaces; the first column is aligned
// left, the others right (they hold numbers). Rows shorter than the header
// are padded with empty cells. Value type.
#pragma once

#include <string>
#include <vector>

namespace allot::cli {

class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) : header_(std::move(header)) {}

  void add_row(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  [[nodiscard]] std::string render() const;

 private:
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace allot::cli
