// Reads the #include lines of the project's sources, for the layering test.
//
// Contract: a textual scan, not a preprocessor: it sees every line of the form
// `#include "x"` or `#include <x>` (leading spaces allowed), whatever #if it
// sits in; a line that starts with a comment is not an include (a block comment
// spanning lines is not understood, so do not quote includes in one). Paths are relative to
// the scanned root and use '/' ("scheduler/plan.h"), sorted.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace allot::arch {

struct IncludeLine {
  int line = 0;         // 1-based line number in the including file
  std::string header;   // as written between the delimiters: "base/status.h", "vector"
  bool angled = false;  // <...> rather than "..."

  friend bool operator==(const IncludeLine&, const IncludeLine&) = default;
};

struct SourceFile {
  std::string path;  // relative to src/: "backends/sim/virtual_executor.cc"
  std::vector<IncludeLine> includes;

  friend bool operator==(const SourceFile&, const SourceFile&) = default;
};

// Every #include line of `text`, in order.
std::vector<IncludeLine> parse_includes(std::string_view text);

// Every .h and .cc file under `root`, recursively, with its includes.
Result<std::vector<SourceFile>> scan_source_tree(const std::string& root);

}  // namespace allot::arch
