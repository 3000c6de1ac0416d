// ProcTable: a snapshot of the machine's processes read from /proc, and the
// pure choice of the processes that belong to one pod, for machines where no
// cgroup holds the pod (pod_trace.h).
//
// Contract:
// - read_proc_table(proc_root) lists every process it can read under
//   proc_root: pid, parent, Unix session, audit session (/proc/PID/sessionid,
//   kNoAuditSession where unset or unreadable) and start time in clock
//   ticks. Processes that vanish while it reads are skipped.
// - pod_members(table, who, self) is pure: the processes of the pod whose
//   leader is `who.leader` (started at `who.leader_start`): those in the
//   leader's Unix session (the pod's spawn made one: process_spawn.h), those
//   in its audit session (set when the pod started; unchangeable without
//   CAP_AUDIT_CONTROL, so it survives setsid and double forks), and every
//   descendant of any of these, walked by parent pid. When the pid of the
//   leader now belongs to a process started at another time, its Unix session
//   and descendants are not the pod's and only the audit session counts. Pid
//   1, `self` (allotd) and zombies (nothing left to signal) are never members.
// Thread-safe (no shared state).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <sys/types.h>

namespace allot::local {

inline constexpr uint32_t kNoAuditSession = 0xffffffffU;

struct ProcEntry {
  pid_t pid = 0;
  pid_t parent = 0;
  pid_t session = 0;
  uint32_t audit_session = kNoAuditSession;
  uint64_t start_ticks = 0;
  bool zombie = false;  // ended, waiting for its parent to reap it
};

// What identifies a pod's processes without a cgroup.
struct PodProcessKey {
  pid_t leader = -1;
  uint64_t leader_start = 0;  // 0: unknown (the leader is then taken as ours)
  uint32_t audit_session = kNoAuditSession;
};

std::vector<ProcEntry> read_proc_table(const std::string& proc_root = "/proc");

// The start time of `pid` in clock ticks since boot (/proc/<pid>/stat), 0 if unknown.
uint64_t process_start_ticks(pid_t pid);

// The audit session of `pid` (kNoAuditSession when unset or unknown).
uint32_t audit_session_of(pid_t pid, const std::string& proc_root = "/proc");

std::vector<pid_t> pod_members(const std::vector<ProcEntry>& table, const PodProcessKey& who,
                               pid_t self);

}  // namespace allot::local
