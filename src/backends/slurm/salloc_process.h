// The salloc of an allocation (slurm_jobs.h's SubmitMode::kAllocation), as
// the launcher names it, and how allotd makes sure it is gone once its job
// ended (Slurm 22.05's salloc can outlive an allocation that was granted and
// cancelled at once, spinning on a CPU and ignoring SIGTERM:
// docs/benchmarks.md, "A salloc that never ends").
//
// Contract:
// - A SallocProcess is a pid and that process's start time (/proc/PID/stat's
//   field 22, clock ticks after boot): together they name one process and no
//   later one given the same pid. The launcher reads the start time while
//   salloc is its child (alive, or a zombie it has not reaped: the pid is
//   not free yet), before it exits.
// - parse_allocation_answer() reads the launcher's answer, "ID PID START"
//   (the job id alone when the launcher could not read salloc's start time):
//   the job id, and the salloc when both numbers are there. A first word that
//   is not a job id is kInvalidArgument naming the answer. Pure.
// - signal_salloc() signals the process only while it is still that salloc:
//   a pidfd is opened first, the start time compared after (a pid reused
//   between the two leaves the pidfd on the old, ended process), and the
//   signal sent through the pidfd. A process that is gone, a zombie, or
//   another process under the same pid is kGone and is never signalled.
//   Kernels without pidfds (before 5.3): the same comparison, then kill(),
//   with the window between them open. kFailed: the signal was refused
//   (EPERM: allotd runs as neither root nor salloc's user).
// - The salloc runs as the job's owner when there is one (setpriv execs
//   salloc under the launcher's pid): allotd, as root, may signal it.
// - running_sallocs() finds, in `proc` (/proc), the sallocs running on this
//   host by the job name they were started with (an argument
//   `--job-name=NAME`; the process named "salloc"), for the names `wanted`
//   accepts: how an allotd that restarted finds the sallocs of the jobs it
//   adopts, which the launcher named to the allotd before. Each with its
//   start time, read before and after its arguments (equal, or the process
//   is skipped: its pid changed hands meanwhile). A name that more than one
//   salloc claims is left out and listed in `ambiguous`.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace allot::slurm {

struct SallocProcess {
  int64_t pid = 0;
  uint64_t start = 0;  // /proc/PID/stat's starttime

  friend bool operator==(const SallocProcess&, const SallocProcess&) = default;
};

struct AllocationAnswer {
  std::string job_id;
  std::optional<SallocProcess> salloc;
};

Result<AllocationAnswer> parse_allocation_answer(std::string_view answer);

// The start time of process `pid` while it runs (not a zombie); nullopt when
// there is no such process.
std::optional<uint64_t> running_process_start(int64_t pid, const std::string& proc = "/proc");

struct RunningSallocs {
  std::map<std::string, SallocProcess> by_job_name;
  std::vector<std::string> ambiguous;  // names claimed by several sallocs
};
RunningSallocs running_sallocs(const std::function<bool(std::string_view)>& wanted,
                               const std::string& proc = "/proc");

enum class Signalled { kSent, kGone, kFailed };
// kNever takes the path of kernels without pidfds where pidfds exist too
// (tests).
enum class PidfdUse { kWhenTheKernelHasThem, kNever };
Signalled signal_salloc(const SallocProcess& salloc, int signal,
                        PidfdUse pidfds = PidfdUse::kWhenTheKernelHasThem);

}  // namespace allot::slurm
