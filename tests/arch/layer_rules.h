// The layering rules of DESIGN.md section 10, as data, and the check of a
// source tree's #include lines against them.
//
// A file's layer is the first folder of its path under src/ ("service/x.cc"
// is in `service`), except in the concrete implementations of a layer's ports:
// the listed sub-folders of `store` and `backends` ("backends/sim",
// "store/sqlite"; a sub-folder of those layers missing from the table is an
// error). An implementation follows its layer's row of the table, and is
// named as itself in messages ("layer 'backends/sim' may not use ...").
//
// A project include is quoted and rooted at src/ ("base/status.h"); its first
// folder is the layer it uses. A layer may always use itself. A header of an
// implementation folder may be included only from that folder and from `app`,
// the one place where implementations are chosen; every other file uses the
// ports (store/store.h, backends/executor.h, backends/stepped_executor.h, backends/node_health.h).
// Pure layers (scheduler, authz, accounting, governance) may not include headers that do I/O, start
// threads or read a clock, and, like base and model, use no third-party header: only the C++
// standard library. Nothing is forgiven: the last named breach (the simulator holding the sim
// backend by its concrete type) went when the backend moved behind the
// SteppedExecutor port.
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
// unknown layer (a folder missing from the table). An implementation folder
// ("backends/sim") answers for its layer's row.
std::vector<std::string_view> allowed_layers(std::string_view layer);
// A top-level layer ("store") or an implementation folder ("store/sqlite").
bool is_known_layer(std::string_view layer);
bool is_pure_layer(std::string_view layer);
// "store/sqlite", "backends/local", ...: concrete implementations of ports.
bool is_implementation(std::string_view folder);

// The folder whose rules `path` (relative to src/, a file or an included
// header) follows: "backends/sim" for "backends/sim/virtual_executor.h",
// "service" for "service/control_plane.h", "store/foo" for "store/foo/x.h"
// even when the table does not know it; empty for a path with no folder.
std::string_view layer_of(std::string_view path);

// Every include of `files` that the table forbids, in file and line order.
std::vector<Violation> find_violations(const std::vector<SourceFile>& files);

}  // namespace allot::arch
