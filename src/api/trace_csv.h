// TraceCsv: reads the comma-separated text of a trace file row by row, with
// typed fields whose errors say where they are.
//
// Contract: the first line is a header of column names; every later line
// that is not blank is a row with exactly as many fields as the header.
// Fields are split at commas (no quoting: trace fields never contain commas)
// and trimmed of spaces, tabs and a trailing '\r'. Errors are
// invalid_argument Statuses whose details locate them as
//   "<source>: line <n>" or "<source>: line <n>: column <name>"
// and whose message says what is wrong ("not a number 'x'"). The text must
// outlive the reader (fields are views into it). Not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/status.h"

namespace allot {

class TraceCsv {
 public:
  // Reads the header; an empty text or a repeated column name is an error.
  static Result<TraceCsv> open(std::string_view text, std::string_view source);

  // Index of the column called `name`, if the header has one.
  [[nodiscard]] std::optional<size_t> column(std::string_view name) const;
  // Like column(), but a missing column is an error naming it.
  [[nodiscard]] Result<size_t> required_column(std::string_view name) const;
  // Fails on the first header column not in `known`.
  [[nodiscard]] Status check_known_columns(const std::vector<std::string_view>& known) const;

  // Moves to the next row; false at the end of the text. A row with the wrong
  // number of fields is an error.
  Result<bool> next_row();

  // REQUIRES: next_row() returned true; `column` < the header's size.
  [[nodiscard]] std::string_view text(size_t column) const { return fields_[column]; }
  // A finite decimal number; negative values only when `allow_negative`.
  [[nodiscard]] Result<double> number(size_t column, bool allow_negative) const;
  // A whole number >= 0.
  [[nodiscard]] Result<int64_t> count(size_t column) const;
  // Seconds (a number >= 0) with millisecond precision.
  [[nodiscard]] Result<int64_t> millis(size_t column, bool allow_negative) const;

  [[nodiscard]] int64_t line() const { return line_; }
  // An invalid_argument located at the current row and `column`.
  [[nodiscard]] Status field_error(size_t column, std::string what) const;

 private:
  TraceCsv(std::string_view rest, std::string source) : rest_(rest), source_(std::move(source)) {}

  // The next line of the text, or nullopt at the end.
  std::optional<std::string_view> next_line();
  [[nodiscard]] std::string where() const;

  std::string_view rest_;  // text not yet read
  std::string source_;
  std::vector<std::string> header_;
  std::vector<std::string_view> fields_;
  int64_t line_ = 0;
};

}  // namespace allot
