// SlurmPolicySync: the PolicySync port on a real Slurm, through sacctmgr,
// scontrol and squeue (run by a CommandRunner). It reads Slurm's accounting,
// plans with plan_sync() (sync_plan.h) and carries the plan out.
//
// Contract:
// - Before any change, the site is checked: sacctmgr runs, Slurm's
//   accounting knows the cluster (spec.slurm.clusterName), the partition
//   exists (spec.slurm.partition), and every TRES the plan would limit is
//   known to Slurm (a typed GRES `gres/gpu:<flavor>` needs the type in
//   slurm.conf's AccountingStorageTRES and the nodes' Gres). Any failure is
//   kFailedPrecondition naming what is missing, and nothing is changed.
// - apply() runs the plan's changes in order; it stops at the first that
//   fails and answers kUnavailable with the command, Slurm's words and how
//   many were made (each change is safe to repeat: the next apply finishes).
// - desired.site, where given, replaces the site of the constructor (the
//   Cluster's spec.slurm), and is kept for the calls after.
// - plan() is the dry run: the changes apply() would make now, with the drift.
// - Thread-compatible (one caller at a time).
#pragma once

#include <set>
#include <string>

#include "backends/policy_sync.h"
#include "backends/slurm/command_runner.h"
#include "backends/slurm/sync_plan.h"

namespace allot::slurm {

struct SlurmSite {
  std::string cluster;    // Slurm's ClusterName
  std::string partition;  // where allot's work runs
};

class SlurmPolicySync final : public PolicySync {
 public:
  SlurmPolicySync(CommandRunner& runner, SlurmSite site)
      : runner_(runner), site_(std::move(site)) {}

  Result<SyncPlan> plan(const BackendPolicy& desired);
  Result<SyncReport> apply(const BackendPolicy& desired) override;
  // plan() in the port's shape: the sacctmgr command lines, the drift.
  Result<SyncReport> dry_run(const BackendPolicy& desired) override;
  // allot's part of Slurm in the port's shape: accounts with child accounts
  // are cohorts, the others teams (ceilings read back from GrpTRES: typed
  // GPUs under their flavor, the rest under an empty flavor), QoS as classes
  // (preempts_lower when its Preempt list is not empty), under the root
  // of the last plan()/apply() (or set_root()).
  Result<BackendPolicy> observe() override;
  void set_root(std::string root) { root_ = std::move(root); }

  Result<SlurmAccounting> read_accounting();

 private:
  Result<CommandResult> run_ok(const std::vector<std::string>& argv);
  Status check_site(const SlurmAccounting& desired);
  Result<std::set<std::string>> busy_accounts();

  CommandRunner& runner_;
  SlurmSite site_;
  std::string root_ = "allot";
};

}  // namespace allot::slurm
