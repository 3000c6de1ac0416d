// Pod activity: how busy a workload's pods are, read from the machine for
// Executor::activity() (docs/spaces.md: what makes a Space idle).
//
// Contract:
// - read_pod_activity() sums the CPU time of every pod traced in `traces`:
//   from each pod's cgroup v2 folder (cpu.stat usage_usec) where it has one
//   with that file, else from /proc (under proc_root): utime + stime + cutime +
//   cstime (/proc/PID/stat) of each process of the pod (pod_members(), its
//   Unix and audit sessions and their descendants). A process that vanishes
//   meanwhile counts nothing. The heartbeat is `heartbeat_file`'s mtime when
//   it exists (wall clock, as allotd's clock).
// - nullopt when no pod is traced (none runs).
// - heartbeat_path() is where the pods of a workload find it
//   ($ALLOT_HEARTBEAT_FILE): a hidden file in the workload's working folder.
// Thread-safe (no shared state).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "backends/local/pod_trace.h"
#include "model/activity_sample.h"

namespace allot::local {

inline constexpr const char* kHeartbeatEnv = "ALLOT_HEARTBEAT_FILE";

std::string heartbeat_path(const std::string& work_dir);

std::optional<ActivitySample> read_pod_activity(const std::vector<PodTrace>& traces,
                                                const std::string& heartbeat_file,
                                                const std::string& proc_root = "/proc");

// The CPU time in microseconds that /proc/PID/stat reports for `pid`
// (utime + stime + cutime + cstime); 0 when it cannot be read.
int64_t process_cpu_micros(pid_t pid, const std::string& proc_root = "/proc");

}  // namespace allot::local
