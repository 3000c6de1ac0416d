// spawn_process(): starts a program as a real child process in its own session
// and process group, with an exact environment, output file, working folder,
// Unix identity and cgroup; no shell is involved.
//
// Contract:
// - Everything the child needs is prepared before vfork(); between vfork() and
//   exec the child makes only async-signal-safe calls (raw syscalls for the
//   identity switch), so it is safe from a multi-threaded parent.
// - The child: setsid() (its pid is its process group id), joins the cgroup
//   (writes "0" to each of `cgroup_procs_fds`), with `new_audit_session`
//   writes its future uid to /proc/self/loginuid (best effort: the kernel
//   then gives it an audit session of its own, inherited by everything it
//   starts and unchangeable without CAP_AUDIT_CONTROL, proc_table.h), restores default signal
//   dispositions and an empty mask, stdin from /dev/null, stdout and stderr to `output_fd`, umask
//   0007, chdir(working_dir), setgroups/setgid/setuid, then execve() of argv[0] (a path, or a name
//   looked up in the PATH of `env`). No descriptor of the parent survives the exec besides 0, 1
//   and 2.
// - spawn_process() returns once the child has either exec'd or given up. A
//   child that cannot start (command not found, chdir or identity failure)
//   writes "allot: ..." to its output and exits with code 127: it is still a
//   real child to reap, and `exec_errno` says why. Only a failure to create the
//   child at all (fork, pipe) is an error Status.
// - The caller owns the child: it must reap it (waitpid) exactly once.
// Thread-safe (no shared state).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

#include "base/result.h"

namespace allot::local {

inline constexpr int kExecFailedExitCode = 127;

struct ProcessCredentials {
  uid_t uid = 0;
  gid_t gid = 0;  // also the only supplementary group
};

struct SpawnOptions {
  std::vector<std::string> argv;                  // REQUIRES: non-empty
  std::vector<std::string> env;                   // "NAME=value"
  std::string working_dir;                        // empty: the parent's
  std::optional<ProcessCredentials> credentials;  // switch to it (needs root); none: keep
  int output_fd = -1;                             // stdout and stderr; -1: /dev/null
  std::vector<int> cgroup_procs_fds;              // open cgroup.procs to join (at most 8)
  bool new_audit_session = false;                 // see above; needs root
};

struct SpawnedProcess {
  pid_t pid = -1;      // also its process group id
  int exec_errno = 0;  // 0 when it exec'd; otherwise it exits 127
};

Result<SpawnedProcess> spawn_process(const SpawnOptions& options);

// The candidate paths execve() tries for `program` under `path_value` (PATH).
std::vector<std::string> exec_candidates(const std::string& program, const std::string& path_value);

// A pidfd for `pid` (Linux 5.3+), or -1 when the kernel has none. Close-on-exec.
int open_pidfd(pid_t pid);

}  // namespace allot::local
