// allotd's Slurm settings (`--backend slurm`, issue 13; docs/slurm.md) and
// the command-line flags that set them. app/slurm_backend.h puts the backend
// together from them.
//
// Contract: add_slurm_flags() registers every --slurm-* flag on `app`,
// writing into `slurm` when parsed; values are checked where CLI11 can (the
// choices), the durations by SlurmBackend::make().
#pragma once

#include <string>

namespace CLI {  // NOLINT(readability-identifier-naming): CLI11's own name
class App;
}  // namespace CLI

namespace allot::app {

struct SlurmFlags {
  std::string conf;  // slurm.conf (empty: $SLURM_CONF or Slurm's default)
  std::string poll = "500ms";
  // The executor's poll cadence while it waits on Slurm or jobs turn over
  // (slurm_executor.h); "0s" (the default): always `poll`. Opt-in: it halves
  // allot's part of a job's turnover but showed no gain in the lend-borrow
  // figures and multiplies squeue calls by five while work turns over
  // (docs/slurm.md, Turnover).
  std::string fast_poll = "0s";
  // How jobs are asked of Slurm: "batch" (sbatch) or "allocation" (salloc +
  // srun, started by slurmctld inside the request when the nodes are free;
  // one salloc and one srun process per job on allotd's host:
  // slurm_jobs.h, docs/slurm.md *Started at submit*).
  std::string submit = "batch";
  // "on": a pending workload is promised the capacity that a running job of
  // its own team frees by ending, and its job waits in Slurm behind that one
  // (--dependency=afterany), so that Slurm starts it at that end
  // (scheduler/cycle_turnovers.cc, docs/slurm.md *Turnover*); "off": allot
  // submits each job once it has seen the capacity free. On by default since
  // stop 48: B's held share above "off"'s in 5 of 5 lend-borrow rounds, the
  // flood level (docs/slurm.md, Turnover (c)).
  std::string turnover_handovers = "on";
  // How jobs reach slurmctld when the Cluster names no slurmrestd: "libslurm"
  // (slurm::LibraryTransport: the RPCs of sbatch, scancel and squeue from
  // allotd's process; a sbatch process costs about 2.6 ms of CPU a job) or
  // "commands" (slurm::CommandTransport). A salloc allocation always goes
  // through the commands.
  std::string transport = "libslurm";
  // Time between reconciliations of metering with sacct (app/usage_reconciler.h).
  std::string reconcile = "60s";
  // slurmrestd's JWT (a file holding it; empty: $SLURM_JWT) and whose it is
  // (empty: allotd's user).
  std::string rest_token_file;
  std::string rest_user;
  // How job states are polled with slurmrestd: "squeue" or "rest" (GET /jobs).
  std::string rest_poll = "squeue";
};

void add_slurm_flags(CLI::App& app, SlurmFlags& slurm);

}  // namespace allot::app
