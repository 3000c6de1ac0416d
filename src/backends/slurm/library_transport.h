// LibraryTransport: the Slurm executor's jobs through libslurm, Slurm's own
// C API (issue 13, item 3): submit, cancel/signal and the batched state poll
// are RPCs to slurmctld from allotd's process, the very calls sbatch, scancel
// and squeue make, without starting a process for each (a sbatch costs about
// 2.6 ms of CPU to start, load libslurm and read slurm.conf: half of the
// Slurm side of a 2,000-job flood, docs/slurm.md *libslurm*).
//
// Contract (beyond slurm_transport.h's):
// - make() initialises libslurm once per process with `conf` (empty:
//   $SLURM_CONF, else Slurm's default) and asks slurmctld for its jobs once:
//   kUnavailable when that fails (slurmctld unreachable, no munge). libslurm's
//   configuration is the process's: one allotd talks to one Slurm.
// - submit() sends the job library_job.h makes of the submission, with the
//   environment sbatch --export=ALL would send: `environment` (PATH and
//   SLURM_CONF, what the commands run with) and what sbatch adds of its own
//   process (submit directory and host, umask, nice value, resource limits:
//   slurmstepd applies those the site's PropagateResourceLimits names).
//   A refusal by slurmctld (an ESLURM_* error but the two sbatch retries, a
//   job-submit refusal) is kFailedPrecondition with Slurm's words; anything
//   else (slurmctld unreachable, a timeout, a credential error, "temporarily
//   unable to accept job", busy nodes) is kUnavailable.
// - cancel() is scancel's call: kCancel signals SIGKILL to the job (Slurm
//   records it CANCELLED, SIGTERM first and SIGKILL after KillWait); kTerm
//   and kKill signal the whole job (KILL_FULL_JOB). A job already ended or
//   unknown is cancelled already.
// - list_jobs() is squeue's -a -t all with kSqueueFormat's fields (state and
//   reason strings from libslurm itself, the raw exit status); when
//   slurmctld's job table has not changed since the previous answer
//   (SLURM_NO_CHANGE_IN_DATA), the previous list.
// - Thread-safe (libslurm's RPC calls are; the kept list is locked).
#pragma once

#include <ctime>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/slurm/library_job.h"
#include "backends/slurm/slurm_transport.h"
#include "base/mutex.h"

namespace allot::slurm {

struct LibrarySettings {
  std::string conf;  // slurm.conf; empty: libslurm's default
  // What sbatch would run with, "NAME=value" (slurm_environment()'s).
  std::vector<std::string> environment;
};

class LibraryTransport final : public SlurmTransport {
 public:
  static Result<std::unique_ptr<LibraryTransport>> make(LibrarySettings settings);

  [[nodiscard]] std::string name() const override { return "libslurm"; }
  Result<std::string> submit(const Submission& submission,
                             const std::optional<JobOwner>& owner) override;
  Status cancel(const std::string& job_id, CancelKind kind) override;
  Result<std::vector<SlurmJob>> list_jobs() override;

 private:
  explicit LibraryTransport(std::map<std::string, std::string> base) : base_(std::move(base)) {}

  const std::map<std::string, std::string> base_;  // environment plus sbatch's own
  Mutex mu_;
  std::vector<SlurmJob> listed_ ALLOT_GUARDED_BY(mu_);
  time_t listed_at_ ALLOT_GUARDED_BY(mu_) = 0;  // slurmctld's last_update of it; 0: none
};

// Whether a Slurm error number is slurmctld refusing the job (submitting it
// again is refused again): the ESLURM_* errors (2000s) but the two sbatch
// retries (ESLURM_ERROR_ON_DESC_TO_RECORD_COPY, ESLURM_NODES_BUSY), and the
// job-submit refusals (8000s). Connection, timeout and credential errors are not.
bool slurm_error_is_refusal(int code);

// sbatch's own additions to a job's environment, read from this process:
// SLURM_SUBMIT_DIR, SLURM_SUBMIT_HOST, SLURM_UMASK, SLURM_PRIO_PROCESS and
// SLURM_RLIMIT_<NAME> for each limit sbatch propagates.
std::map<std::string, std::string> sbatch_process_environment();

}  // namespace allot::slurm
