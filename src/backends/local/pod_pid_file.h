// Pod pid files: DATA/run/<workload_id>-<pod>.pid records each running pod's
// trace (pod_trace.h: its leader, audit session and cgroups), so that an
// allotd that crashed leaves enough behind for the next one to kill every
// process of its pods, the escaped ones (setsid, double fork) included.
//
// Contract:
// - write_pod_pid_file() writes, atomically (atomic_file.h) and mode 0600,
//   without fsync (Survives::kProcessCrash: after a power loss the processes
//   and cgroups it traces are gone too, and a missing or unreadable file is
//   only removed):
//     "pid pgid start_ticks\n"          (the first line, as before)
//     "audit SESSION\n"                 (when the pod has its audit session)
//     "boot BOOT_ID\n"                  (/proc/sys/kernel/random/boot_id)
//     "cgroup DIR\n"                    (one per cgroup folder)
//   read_pod_pid_file() reads it back (files of the first line alone too).
// - kill_stale_pods(run_dir) reads every *.pid file there, SIGKILLs the pod it
//   traces (signal_pod(), until no process is left), removes its cgroup
//   folders and the file. A leader whose pid now has another start time (the
//   pid was reused) is left alone, and so is its Unix session; the pod's
//   cgroups and audit session are still killed. A file from an earlier boot
//   keeps only its cgroups (pids and audit sessions start again at boot). A
//   pod already gone only loses its file; an unreadable file is removed.
//   Returns what it found. Meant for startup, before any pod of this process
//   runs: it does not know which pods are its own.
// Thread-compatible.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <sys/types.h>

#include "backends/local/pod_trace.h"
#include "base/result.h"
#include "base/status.h"

namespace allot::local {

struct StalePod {
  std::string pid_file;
  pid_t pgid = -1;      // -1 when the file could not be read
  bool killed = false;  // a signal was delivered to one of its processes
  std::string note;     // "killed", "already gone", "pid reused", "unreadable"
};

// This boot's id, "" when unknown.
std::string current_boot_id();

Status write_pod_pid_file(const std::string& path, const PodTrace& trace);
// A trace of `pid` alone (its start time read now).
Status write_pod_pid_file(const std::string& path, pid_t pid);
// The trace and the boot id it was written under.
Result<std::pair<PodTrace, std::string>> read_pod_pid_file(const std::string& path);
std::vector<StalePod> kill_stale_pods(const std::string& run_dir);

}  // namespace allot::local
