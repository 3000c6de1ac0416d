// Signalling every process of one cgroup, v1 or v2, and removing the cgroup
// once it is empty: the part of stopping a pod that no setsid() or double
// fork escapes.
//
// Contract:
// - signal_cgroup(dir, sig) signals each process listed in dir/cgroup.procs.
//   For SIGKILL it is race-free where the kernel allows: cgroup v2 writes
//   "1" to cgroup.kill; a cgroup v1 freezer folder (freezer.state) is frozen
//   (waited for, at most `settle`), every process in it is killed, and it is
//   thawed so that the kills take effect; forks in flight cannot escape a
//   frozen cgroup. Other folders are read and signalled until they are empty
//   or `settle` has passed. A folder that lists no process is left as it is
//   (nothing in it can fork). Returns how many processes were signalled; a
//   folder that does not exist signals none.
// - cgroup_pids(dir) reads dir/cgroup.procs (empty when it cannot).
// - cgroup_empty(dir): dir/cgroup.procs could be read and lists no process (a
//   folder that is gone, or unreadable, is not known to be empty).
// - remove_cgroup(dir) removes an empty cgroup folder; kNotFound when it is
//   gone already, an error (EBUSY) while processes remain.
// Thread-safe (no shared state).
#pragma once

#include <string>
#include <vector>

#include <sys/types.h>

#include "base/status.h"
#include "base/time.h"

namespace allot::local {

inline constexpr Duration kCgroupSettle = Duration::seconds(2);

int signal_cgroup(const std::string& dir, int sig, Duration settle = kCgroupSettle);
std::vector<pid_t> cgroup_pids(const std::string& dir);
bool cgroup_empty(const std::string& dir);
Status remove_cgroup(const std::string& dir);

}  // namespace allot::local
