// Pod pid files: DATA/run/<workload_id>-<pod>.pid records each running pod's
// process (pid, process group, start time), so that an allotd that crashed
// leaves enough behind for the next one to kill its orphans.
//
// Contract:
// - write_pod_pid_file() writes "pid pgid start_ticks\n" atomically (a
//   temporary file renamed into place), mode 0600.
// - kill_stale_pods(run_dir) reads every *.pid file there, SIGKILLs the process
//   group it names and removes the file. A group whose leader still exists
//   with a different start time (the pid was reused by an unrelated process)
//   is left alone; a group already gone only loses its file; an unreadable
//   file is removed. Returns what it found. Meant for startup, before any pod
//   of this process runs: it does not know which pods are its own.
// Thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <sys/types.h>

#include "base/status.h"

namespace allot::local {

struct StalePod {
  std::string pid_file;
  pid_t pgid = -1;      // -1 when the file could not be read
  bool killed = false;  // a signal was delivered to the group
  std::string note;     // "killed", "already gone", "pid reused", "unreadable"
};

// The start time of `pid` in clock ticks since boot (/proc/<pid>/stat), 0 if unknown.
uint64_t process_start_ticks(pid_t pid);

Status write_pod_pid_file(const std::string& path, pid_t pid);
std::vector<StalePod> kill_stale_pods(const std::string& run_dir);

}  // namespace allot::local
