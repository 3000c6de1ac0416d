// The layering rules of DESIGN.md section 10, as data, and the check of a
// source tree's #include lines against them.
//
// A file's layer is the first folder of its path under src/ ("backends/sim/x.cc"
// is in `backends`). A project include is quoted and rooted at src/
// ("base/status.h"); its first folder is the layer it uses. A layer may always
// use itself. Pure layers (scheduler, authz, accounting, governance) may not
// include headers that do I/O, start threads or read a clock, and, like base
// and model, use no third-party header: only the C++ standard library.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "arch/include_scanner.h"

namespace allot::arch {

struct Violation {
  std::string path;  // relative to src/
  int line = 0;
  std::string include;  // as written: "\"service/x.h\"" or "<thread>"; empty for the file itself
  std::string reason;

  // "src/scheduler/plan.h:12: #include <thread>: <reason>", or "src/x/y.h: <reason>".
  [[nodiscard]] std::string to_string() const;
};

// The layers a file of `layer` may include, itself excluded; empty for an
// unknown layer (a folder missing from the table).
std::vector<std::string_view> allowed_layers(std::string_view layer);
bool is_known_layer(std::string_view layer);
bool is_pure_layer(std::string_view layer);

// Every include of `files` that the table forbids, in file and line order.
std::vector<Violation> find_violations(const std::vector<SourceFile>& files);

}  // namespace allot::arch
