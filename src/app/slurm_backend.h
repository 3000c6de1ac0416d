// SlurmBackend: allotd's Slurm implementations put together (issue 13;
// `allotd --backend slurm`): Slurm's commands run by a ProcessRunner with
// SLURM_CONF; the SlurmExecutor (one sbatch job per admitted workload); the
// node inventory polled as node health (service/backend_sync/
// inventory_health.h) and drained by allot's cordon and drain; the policy
// carried into Slurm's accounting (SlurmPolicySync), whose partition the
// executor then submits to.
// allotd's own Unix user is associated with every team's account by the
// policy sync. When allotd runs as root, each job runs as its team's Unix
// account, or its submitting user's account in the team: the accounts the
// local backend uses (backends/local/team_identity.h, user_identity.h,
// recorded under DATA/state, created on demand), with their homes under
// DATA (the nodes must see them: shared storage on a real cluster). Not
// root: jobs run as allotd's user (sbatch --uid needs root).
//
// Orphaned jobs (allot's name prefix, unknown to allot) are cancelled and
// logged to `logger` (slurm_executor.h).
//
// slurmrestd: when the Cluster's spec.slurm.rest names one, its apply (and
// dry run) first checks it with one call (RestTransport::check(): a wrong
// URL, a refused token, an API version it does not serve is the apply's
// kFailedPrecondition, before anything is carried into Slurm), and the
// executor's jobs then go through it (slurm_transport.h); without it, or
// once the Cluster names none, through the commands. The jobs' states are
// then polled with squeue (SlurmFlags::rest_poll "squeue": one binary RPC)
// or GET /jobs ("rest": every field of every job as JSON). The nodes (and their
// states) are read through it too (`GET /nodes`); a drain or resume stays
// with scontrol (v0.0.38 has no node update). Without slurmrestd the jobs go
// through libslurm (SlurmFlags::transport, the default) or the commands; with
// it and rest_poll "squeue" the poll goes through libslurm too when chosen. The token is allotd's
// user's JWT from --slurm-rest-token-file, else $SLURM_JWT (`scontrol token
// username=U lifespan=S`; "SLURM_JWT=" before it is skipped); jobs that run
// as a team's account submit with a token minted for that account
// (`scontrol token`, root only).
//
// Contract: make() finds the jobs allot already has in Slurm (they are
// adopted when their workloads are launched again) and starts the
// executor's poll thread; kUnavailable when Slurm cannot be reached (allotd
// then does not start: it could submit work twice). Owns everything it made;
// destroy it after the ControlPlane.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/local/data_layout.h"
#include "backends/local/team_identity.h"
#include "backends/local/user_identity.h"
#include "backends/slurm/command_runner.h"
#include "backends/slurm/library_transport.h"
#include "backends/slurm/rest_transport.h"
#include "backends/slurm/slurm_executor.h"
#include "backends/slurm/slurm_node_inventory.h"
#include "backends/slurm/slurm_policy_sync.h"
#include "base/clock.h"
#include "base/logger.h"
#include "service/backend_sync/inventory_health.h"
#include "service/control/backend_carrier.h"

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

class SlurmBackend {
 public:
  static Result<std::unique_ptr<SlurmBackend>> make(const SlurmFlags& flags,
                                                    const std::string& data_dir, PodEventSink& sink,
                                                    const Clock& clock, Logger& logger);

  Executor& executor() { return executor_; }
  NodeHealthChecker& health() { return health_; }
  [[nodiscard]] BackendPorts ports();

 private:
  // The PolicySync port that also tells the executor the Cluster's partition
  // and transport (after checking slurmrestd when the Cluster names it).
  class PartitionTracking final : public PolicySync {
   public:
    explicit PartitionTracking(SlurmBackend& backend) : backend_(backend) {}
    Result<SyncReport> apply(const BackendPolicy& desired) override;
    Result<SyncReport> dry_run(const BackendPolicy& desired) override;
    Result<BackendPolicy> observe() override { return backend_.sync_.observe(); }

   private:
    SlurmBackend& backend_;
  };

  SlurmBackend(std::vector<std::string> env, std::string user, slurm::SlurmExecutorOptions options,
               const Clock& clock, const std::string& data_dir);
  // The Unix account a job runs as (see the class comment).
  Result<slurm::JobOwner> owner_of(const WorkloadLaunch& launch);
  // slurmrestd at `url`, checked (null for an empty url: the commands).
  Result<std::shared_ptr<slurm::RestTransport>> transport_for(const std::string& url);
  Result<std::string> mint_token(const std::string& user);
  Status place_held_job(const std::string& job_id, const std::string& nodelist);

  std::string user_;
  std::string rest_user_;
  std::string rest_token_;  // never logged
  bool rest_poll_squeue_ = true;
  // The jobs' transport when the Cluster names no slurmrestd (null: the commands).
  std::shared_ptr<slurm::SlurmTransport> default_transport_;
  local::DataLayout layout_;
  local::TeamIdentities teams_{layout_};
  local::UserIdentities users_{layout_};
  slurm::ProcessRunner runner_;
  slurm::CommandTransport commands_{runner_};  // the poll's squeue with slurmrestd
  slurm::SlurmNodeInventory inventory_{runner_};
  slurm::SlurmPolicySync sync_{runner_, {}};
  slurm::SlurmExecutor executor_;
  PartitionTracking tracking_{*this};
  InventoryHealthChecker health_{inventory_};
};

}  // namespace allot::app
