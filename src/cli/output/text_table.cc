#include "cli/output/text_table.h"

#include <algorithm>

namespace allot::cli {
namespace {

void append_cell(std::string& out, const std::string& cell, size_t width, bool left) {
  const std::string padding(width - std::min(width, cell.size()), ' ');
  out += left ? cell + padding : padding + cell;
}

void append_row(std::string& out, const std::vector<std::string>& row,
                const std::vector<size_t>& widths, bool all_left) {
  std::string line;
  for (size_t column = 0; column < widths.size(); ++column) {
    if (column > 0) {
      line += "  ";
    }
    const std::string empty;
    append_cell(line, column < row.size() ? row[column] : empty, widths[column],
                column == 0 || all_left);
  }
  line.erase(line.find_last_not_of(' ') + 1);
  out += line + "\n";
}

}  // namespace

std::string TextTable::render() const {
  std::vector<size_t> widths(header_.size());
  for (size_t column = 0; column < header_.size(); ++column) {
    widths[column] = header_[column].size();
    for (const std::vector<std::string>& row : rows_) {
      if (column < row.size()) {
        widths[column] = std::max(widths[column], row[column].size());
      }
    }
  }
  const bool all_left = alignment_ == Alignment::kLeft;
  std::string out;
  append_row(out, header_, widths, all_left);
  for (const std::vector<std::string>& row : rows_) {
    append_row(out, row, widths, all_left);
  }
  return out;
}

}  // namespace allot::cli
