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
// - signal_pod(trace, sig, until_gone): SIGKILL goes to the leader's process
//   group, to each of the pod's cgroups (cgroup_signal.h: freezer or
//   cgroup.kill), and to every process that /proc shows to be the pod's
//   (pod_members()); any other signal reaches each process of the pod once
//   (from its cgroups, and /proc): a handler runs once. /proc is searched
//   when the pod has no cgroup (which holds all its processes), and with
//   `until_gone` (SIGKILL only) unless every cgroup of the pod exists and is
//   empty after the kill (then nothing of the pod is left: a pod's exit does
//   not read every process's files); that search repeats until no member is
//   left or `settle` has passed. The group is signalled only while its leader
//   is still the pod's process (start time). Never signals allotd or pid 1.
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
