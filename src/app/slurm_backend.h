// SlurmBackend: allotd's Slurm implementations put together (issue 13;
// `allotd --backend slurm`): Slurm's commands run by a ProcessRunner with
// SLURM_CONF; the SlurmExecutor (one sbatch job per admitted workload); the
// node inventory polled as node health (service/backend_sync/
// inventory_health.h) and drained by allot's cordon and drain; the policy
// carried into Slurm's accounting (SlurmPolicySync), whose partition the
// executor then submits to.
// Jobs are submitted as allotd's own Unix user, associated with every
// team's account by the policy sync.
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
};

class SlurmBackend {
 public:
  static Result<std::unique_ptr<SlurmBackend>> make(const SlurmFlags& flags,
                                                    const std::string& data_dir, PodEventSink& sink,
                                                    const Clock& clock);

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
               const Clock& clock);

  std::string user_;
  slurm::ProcessRunner runner_;
  slurm::SlurmNodeInventory inventory_{runner_};
  slurm::SlurmPolicySync sync_{runner_, {}};
  slurm::SlurmExecutor executor_;
  PartitionTracking tracking_{sync_, executor_};
  InventoryHealthChecker health_{inventory_};
};

}  // namespace allot::app
