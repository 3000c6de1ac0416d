#include "api/trace_csv.h"

#include <charconv>
#include <cmath>
#include <utility>

namespace allot {
namespace {

// Largest number of seconds a trace time may have (about 30,000 years), far
// from the overflow of milliseconds in int64.
constexpr double kMaxTraceSeconds = 1e12;

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
    text.remove_prefix(1);
  }
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
    text.remove_suffix(1);
  }
  return text;
}

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    const size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) {
      fields.push_back(trim(line.substr(start)));
      return fields;
    }
    fields.push_back(trim(line.substr(start, comma - start)));
    start = comma + 1;
  }
}

std::string single_quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

}  // namespace

Result<TraceCsv> TraceCsv::open(std::string_view text, std::string_view source) {
  TraceCsv reader(text, std::string(source));
  std::optional<std::string_view> header = reader.next_line();
  if (!header || trim(*header).empty()) {
    return invalid_argument("no header line", reader.source_ + ": line 1");
  }
  for (std::string_view name : split_fields(*header)) {
    if (reader.column(name)) {
      return invalid_argument("column " + single_quoted(name) + " appears twice", reader.where());
    }
    reader.header_.emplace_back(name);
  }
  return reader;
}

std::optional<size_t> TraceCsv::column(std::string_view name) const {
  for (size_t i = 0; i < header_.size(); ++i) {
    if (header_[i] == name) {
      return i;
    }
  }
  return std::nullopt;
}

Result<size_t> TraceCsv::required_column(std::string_view name) const {
  if (std::optional<size_t> index = column(name)) {
    return *index;
  }
  return invalid_argument("the header has no column " + single_quoted(name), source_ + ": line 1");
}

Status TraceCsv::check_known_columns(const std::vector<std::string_view>& known) const {
  for (const std::string& name : header_) {
    bool found = false;
    for (std::string_view candidate : known) {
      found = found || candidate == name;
    }
    if (!found) {
      return invalid_argument("unknown column " + single_quoted(name), source_ + ": line 1");
    }
  }
  return {};
}

std::optional<std::string_view> TraceCsv::next_line() {
  if (rest_.empty()) {
    return std::nullopt;
  }
  ++line_;
  const size_t end = rest_.find('\n');
  std::string_view line = rest_.substr(0, end);
  rest_ = end == std::string_view::npos ? std::string_view() : rest_.substr(end + 1);
  return line;
}

Result<bool> TraceCsv::next_row() {
  while (std::optional<std::string_view> line = next_line()) {
    if (trim(*line).empty()) {
      continue;
    }
    fields_ = split_fields(*line);
    if (fields_.size() != header_.size()) {
      return invalid_argument("expected " + std::to_string(header_.size()) + " fields, found " +
                                  std::to_string(fields_.size()),
                              where());
    }
    return true;
  }
  fields_.clear();
  return false;
}

Result<double> TraceCsv::number(size_t column, bool allow_negative) const {
  const std::string_view field = fields_[column];
  if (field.empty()) {
    return field_error(column, "missing value");
  }
  double value = 0;
  const char* end = field.data() + field.size();
  const auto [ptr, error] = std::from_chars(field.data(), end, value);
  if (error != std::errc() || ptr != end || !std::isfinite(value)) {
    return field_error(column, "not a number " + single_quoted(field));
  }
  if (value < 0 && !allow_negative) {
    return field_error(column, "negative value " + single_quoted(field));
  }
  return value;
}

Result<int64_t> TraceCsv::count(size_t column) const {
  ALLOT_ASSIGN_OR_RETURN(const double value, number(column, false));
  if (value != std::floor(value) || value > kMaxTraceSeconds) {
    return field_error(column, "not a whole number " + single_quoted(fields_[column]));
  }
  return static_cast<int64_t>(value);
}

Result<int64_t> TraceCsv::millis(size_t column, bool allow_negative) const {
  ALLOT_ASSIGN_OR_RETURN(const double value, number(column, allow_negative));
  if (std::fabs(value) > kMaxTraceSeconds) {
    return field_error(column, "out of range " + single_quoted(fields_[column]));
  }
  return static_cast<int64_t>(std::llround(value * 1000.0));
}

Status TraceCsv::field_error(size_t column, std::string what) const {
  return invalid_argument(std::move(what), where() + ": column " + header_[column]);
}

std::string TraceCsv::where() const { return source_ + ": line " + std::to_string(line_); }

}  // namespace allot
