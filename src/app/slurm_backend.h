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
  // Time between reconciliations of metering with sacct (app/usage_reconciler.h).
  std::string reconcile = "60s";
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
  // The PolicySync port that also tells the executor the Cluster's partition.
  class PartitionTracking final : public PolicySync {
   public:
    PartitionTracking(slurm::SlurmPolicySync& sync, slurm::SlurmExecutor& executor)
        : sync_(sync), executor_(executor) {}
    Result<SyncReport> apply(const BackendPolicy& desired) override;
    Result<SyncReport> dry_run(const BackendPolicy& desired) override {
      return sync_.dry_run(desired);
    }
    Result<BackendPolicy> observe() override { return sync_.observe(); }

   private:
    slurm::SlurmPolicySync& sync_;
    slurm::SlurmExecutor& executor_;
  };

  SlurmBackend(std::vector<std::string> env, std::string user, slurm::SlurmExecutorOptions options,
               const Clock& clock, const std::string& data_dir);
  // The Unix account a job runs as (see the class comment).
  Result<slurm::JobOwner> owner_of(const WorkloadLaunch& launch);

  std::string user_;
  local::DataLayout layout_;
  local::TeamIdentities teams_{layout_};
  local::UserIdentities users_{layout_};
  slurm::ProcessRunner runner_;
  slurm::SlurmNodeInventory inventory_{runner_};
  slurm::SlurmPolicySync sync_{runner_, {}};
  slurm::SlurmExecutor executor_;
  PartitionTracking tracking_{sync_, executor_};
  InventoryHealthChecker health_{inventory_};
};

}  // namespace allot::app
