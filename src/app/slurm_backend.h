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

#include "app/slurm_flags.h"
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
