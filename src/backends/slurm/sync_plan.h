// plan_sync(): the sacctmgr changes that make Slurm's accounting hold allot's
// policy (DESIGN.md section 5; issue 13, item 1). Pure: state in, changes out.
//
// How the policy maps (docs/slurm.md):
// - `root` becomes an account under Slurm's `root`; each cohort an account
//   under its parent cohort (or allot's root); each team an account under its
//   cohort, with Fairshare = round(100 x fairShareWeight) (cohorts: 100) and
//   GrpTRES = its ceiling (the most it may ever hold, nominal + borrowing:
//   scheduler/team_ceiling.h): GPUs as `gres/gpu:<flavor>` when the policy has
//   several flavors, `gres/gpu` when it has one; CPUs (`cpu`, whole CPUs,
//   rounded up) and memory (`mem`, MiB, rounded up) summed over flavors,
//   since Slurm does not tell them apart by flavor. A resource no quota
//   governs has no limit.
// - each user of a team gets an association under the team's account;
// - each priority class becomes a QoS (Description `allot:<root>`), Priority
//   = value shifted so that the lowest is at least 0, PreemptMode=requeue,
//   and Preempt = every class of lower value when the class preempts; a team
//   may use the QoS of its allowed classes (all when it names none), the
//   lowest of them by default.
//
// Contract:
// - Only what allot manages is touched: the accounts under allot's root
//   account and the QoS whose Description is `allot:<root>` (and the QoS the
//   policy names, taken over). Nothing else the site keeps is changed.
// - Idempotent: planning against the state the changes produce gives none.
// - Ordered so that each change is valid when made: QoS before the accounts
//   that use them, parents before children, removals children first, and a
//   QoS's Preempt list once every QoS exists.
// - An account that left the policy but still has jobs (`busy_accounts`) is
//   not removed: its GPU limits are set to 0 and it is listed in `deferred`.
// - `drift` names every difference between an existing object and the
//   policy, in Slurm's and the policy's terms (a change made by hand, or a
//   policy change not yet applied); objects allot will create are not drift.
// - An account the policy names that exists outside allot's root (the site's
//   own) is kFailedPrecondition: allot does not take over the site's accounts.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "backends/policy_sync.h"
#include "backends/slurm/desired_accounting.h"
#include "backends/slurm/slurm_accounting.h"
#include "base/result.h"

namespace allot::slurm {

struct SacctmgrChange {
  std::vector<std::string> args;                   // after `sacctmgr -i`
  [[nodiscard]] std::string command_line() const;  // "sacctmgr -i add account ..."

  friend bool operator==(const SacctmgrChange&, const SacctmgrChange&) = default;
};

struct SyncPlan {
  std::vector<SacctmgrChange> changes;
  std::vector<std::string> drift;
  std::vector<std::string> deferred;  // accounts kept until their jobs end
};

Result<SyncPlan> plan_sync(const BackendPolicy& policy, const SlurmAccounting& observed,
                           const std::string& cluster, const std::set<std::string>& busy_accounts);

// The part of `observed` that allot manages (its root and everything under
// it; its QoS): what PolicySync::observe() reports.
SlurmAccounting managed_part(const SlurmAccounting& observed, const std::string& root);

}  // namespace allot::slurm
