// Processes allotd started but does not wait for (a salloc in a session of its
// own, slurm_jobs.h), told apart from a later process that reuses the pid by
// their start time. Linux: /proc.
//
// Contract:
// - process_start_ticks(pid) is the process's start time (field 22 of
//   /proc/PID/stat, clock ticks since boot); nullopt when there is no such
//   process (or /proc cannot be read).
// - kill_if_same(pid, ticks) sends SIGKILL when pid is still the process
//   that started at `ticks`; true when it sent it. A pid gone or reused by
//   another process is left alone (false).
#pragma once

#include <cstdint>
#include <optional>

namespace allot::slurm {

std::optional<uint64_t> process_start_ticks(int64_t pid);
bool kill_if_same(int64_t pid, uint64_t start_ticks);

}  // namespace allot::slurm
