// The small control files of cgroups (v1 and v2): read one whole, write one
// value, open a cgroup's `cgroup.procs` to move a process in later. Shared by
// the v2 pool (cgroup_pool), the v1 pool (cgroup_v1_pool) and the pod-wide
// signals (cgroup_signal).
//
// Contract: plain system calls, no buffering; each function opens and closes
// its file (open_procs_file() returns the descriptor, which the caller
// closes). Errors are Statuses naming the operation and the path.
#pragma once

#include <string>

#include "base/result.h"

namespace allot::local {

bool file_exists(const std::string& path);
// The whole file into `out`; false when it cannot be opened or read.
bool read_small_file(const std::string& path, std::string& out);
// One write of `text` (a control file takes a value per write).
Status write_control_file(const std::string& path, const std::string& text);
// `dir`/cgroup.procs opened for writing (close-on-exec).
Result<int> open_procs_file(const std::string& dir);

}  // namespace allot::local
