// parsable_fields(): the fields of one line of Slurm's `-P` (parsable)
// output, split at '|' as written (no trimming; an empty field stays empty).
// Pure; the views point into `line`.
#pragma once

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

}  // namespace allot::slurm
