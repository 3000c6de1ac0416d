// parsable_fields(): the fields of one line of Slurm's `-P` (parsable)
// output, split at '|' as written (no trimming; an empty field stays empty).
// parsable_number(): a field that must be a whole decimal number, all of it;
// nullopt otherwise (empty, "12.5", "8%"). Pure; the views point into `line`.
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace allot::slurm {

inline std::vector<std::string_view> parsable_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t at = 0;
  for (;;) {
    const size_t bar = line.find('|', at);
    fields.push_back(line.substr(at, bar == std::string_view::npos ? line.size() - at : bar - at));
    if (bar == std::string_view::npos) return fields;
    at = bar + 1;
  }
}

inline std::optional<int64_t> parsable_number(std::string_view field) {
  int64_t value = 0;
  const auto [end, error] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (field.empty() || error != std::errc() || end != field.data() + field.size()) {
    return std::nullopt;
  }
  return value;
}

}  // namespace allot::slurm
