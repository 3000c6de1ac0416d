// SlurmTransport: how the Slurm executor reaches slurmctld for its jobs
// (issue 13, item 3): submit, cancel/signal and the batched state poll. Three
// implementations: the commands (CommandTransport: sbatch, scancel, squeue),
// libslurm (library_transport.h: the same RPCs from allotd's process) and
// slurmrestd v0.0.38 (rest_transport.h), chosen by the Cluster's
// spec.slurm.rest and allotd's --slurm-transport.
//
// Contract:
// - submit() submits one job (a Submission of slurm_jobs.h: sbatch's argv and
//   the batch script; the script is already written at its path for sbatch)
//   and returns Slurm's job id. kFailedPrecondition: Slurm refused the job
//   (an unknown account, QoS, node...): submitting it again is refused again.
//   kUnavailable: Slurm (or slurmrestd) was not reached or refused the
//   credentials: the job may be submitted again later (the executor first
//   looks for it by name, in case it was submitted after all).
// - cancel(): kCancel ends the job (recorded CANCELLED; SIGTERM, SIGKILL
//   after KillWait); kTerm / kKill send the signal to every process of the
//   job, its batch script included, without ending it in Slurm's records.
// - list_jobs(): every job slurmctld holds (pending, running, and ended ones
//   it still remembers), in ONE call, as squeue -a -t all says them.
// - Thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "backends/slurm/command_runner.h"
#include "backends/slurm/salloc_process.h"
#include "backends/slurm/slurm_jobs.h"
#include "base/result.h"

namespace allot::slurm {

enum class CancelKind { kCancel, kTerm, kKill };

class SlurmTransport {
 public:
  virtual ~SlurmTransport() = default;
  // "commands", "libslurm" or "slurmrestd" (logs, views).
  [[nodiscard]] virtual std::string name() const = 0;
  // Whether submit() reads the batch script from its path (sbatch does);
  // otherwise the script's text travels in the request and no file is written.
  [[nodiscard]] virtual bool reads_script_file() const { return false; }
  virtual Result<std::string> submit(const Submission& submission,
                                     const std::optional<JobOwner>& owner) = 0;
  virtual Status cancel(const std::string& job_id, CancelKind kind) = 0;
  virtual Result<std::vector<SlurmJob>> list_jobs() = 0;
};

// The commands: sbatch (the owner is in its argv: --uid/--gid) or the
// allocation's launcher, run with the submission's env added, scancel
// [--signal=TERM|KILL --full], squeue -h -a -t all -O kSqueueFormat.
// allocate() runs the allocation's launcher (a Submission whose tool is
// salloc) and returns its whole answer: the job id and the salloc
// (salloc_process.h); submit() of such a Submission returns the job id alone.
class CommandTransport final : public SlurmTransport {
 public:
  explicit CommandTransport(CommandRunner& runner) : runner_(runner) {}
  [[nodiscard]] std::string name() const override { return "commands"; }
  [[nodiscard]] bool reads_script_file() const override { return true; }
  Result<std::string> submit(const Submission& submission,
                             const std::optional<JobOwner>& owner) override;
  Result<AllocationAnswer> allocate(const Submission& submission);
  Status cancel(const std::string& job_id, CancelKind kind) override;
  Result<std::vector<SlurmJob>> list_jobs() override;

 private:
  // What the command printed, refused or timed out as submit() says.
  Result<std::string> answer_of(const Submission& submission);

  CommandRunner& runner_;
};

// The argv of the command that cancels or signals a job as `kind` says.
std::vector<std::string> scancel_argv(const std::string& job_id, CancelKind kind);

}  // namespace allot::slurm
