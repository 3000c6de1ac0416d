// PodTrace: what finds every process of one pod, wherever it went (setsid,
// double fork), and signal_pod() that signals them all: the stop of a pod, of
// the rest of a pod whose main process ended, and of a pod that a crashed
// allotd left behind (recorded in its pid file, pod_pid_file.h).
//
// Contract:
// - A trace holds the pod's leader (pid, start time: its process group and
//   Unix session have its pid), its audit session (proc_table.h; unset where
//   the kernel has no audit support) and its cgroup folders (one per cgroup
//   v1 hierarchy, or the one of cgroup v2; none without cgroups).
// - signal_pod(trace, sig, until_gone): signals the process group of the
//   leader, every process of the pod's cgroups (cgroup_signal.h: SIGKILL
//   freezes or uses cgroup.kill), and every process that /proc shows to be
//   the pod's (pod_members()). With `until_gone` (SIGKILL only), /proc is
//   read again until no member is left or `settle` has passed. Never signals
//   allotd itself or pid 1.
// - What holds where: with a cgroup (v1 freezer or v2), nothing escapes. With
//   /proc only, a process escapes that both leaves the pod's Unix session and
//   is orphaned before a scan sees it, unless the audit session caught it
//   (needs CONFIG_AUDIT and CAP_AUDIT_CONTROL, which root has).
// Thread-safe (no shared state).
#pragma once

#include <string>
#include <vector>

#include "backends/local/cgroup_signal.h"
#include "backends/local/proc_table.h"
#include "base/time.h"

namespace allot::local {

struct PodTrace {
  PodProcessKey process;
  std::vector<std::string> cgroups;
};

// Returns how many signals were delivered.
int signal_pod(const PodTrace& trace, int sig, bool until_gone, Duration settle = kCgroupSettle);

}  // namespace allot::local
