// PolicySync: allot's organisation and quotas carried into a backend that
// enforces limits of its own (DESIGN.md section 5): Slurm accounts,
// associations and GrpTRES; Kubernetes namespaces, ResourceQuotas and Kueue
// objects. allot stays the source of truth; the backend enforces the ceiling
// even for work submitted around allot.
//
// Contract:
// - apply(desired) makes the backend match `desired` and answers what it
//   changed. It is idempotent (a second apply of the same state changes
//   nothing) and touches only what allot manages (objects under `root`):
//   whatever else the site keeps in the backend is left alone. A team that
//   left the policy is removed from the backend once it runs nothing there;
//   until then it is kept with a ceiling of zero and listed in `deferred`.
// - Partial failure is reported, never hidden: the Status names the first
//   object that failed, and a later apply() finishes the work (each change is
//   safe to repeat).
// - dry_run() answers the changes apply() would make, and makes none.
// - observe() reads what the backend holds now under `root`, in the same
//   shape, so that drift (a change made in the backend by hand) can be shown
//   and undone.
// - Thread-compatible.
// Implemented by the Slurm backend (issue 13) and the Kubernetes export.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/quantity.h"
#include "base/result.h"
#include "model/ids.h"

namespace allot {

// The most a team may hold of one flavor's resource (scheduler/team_ceiling.h
// computes it from the quota tree).
struct FlavorLimit {
  std::string flavor;
  Resource resource = Resource::kGpu;
  int64_t amount = 0;  // in the resource's base unit

  friend bool operator==(const FlavorLimit&, const FlavorLimit&) = default;
};

// A priority class as the backend will hold it (a Slurm QoS): work of a class
// that preempts may take the place of work of every class of lower value.
struct SyncedPriorityClass {
  std::string name;
  int32_t value = 0;
  bool preempts_lower = true;  // preemptionPolicy PreemptLowerPriority

  friend bool operator==(const SyncedPriorityClass&, const SyncedPriorityClass&) = default;
};

// One team as the backend will hold it.
struct SyncedTeam {
  TeamId team;
  std::string parent;                         // its cohort, or empty under the root
  std::vector<FlavorLimit> ceiling;           // governed resources only: the rest is not limited
  double fair_share_weight = 1.0;             // as the policy says; the backend rounds as it must
  std::vector<std::string> users;             // who may submit as the team
  std::vector<std::string> priority_classes;  // the classes it may use; empty: all

  friend bool operator==(const SyncedTeam&, const SyncedTeam&) = default;
};

// A cohort as the backend will hold it (a parent account, a Kueue Cohort).
struct SyncedCohort {
  std::string name;
  std::string parent;  // empty under the root

  friend bool operator==(const SyncedCohort&, const SyncedCohort&) = default;
};

// Where in the backend allot's part lives (Slurm: ClusterName and the
// partition of spec.slurm); empty fields: the backend's configured ones.
// `rest_url`: slurmrestd's, when the backend's jobs go through it.
struct BackendSite {
  std::string cluster;
  std::string partition;
  std::string rest_url;

  friend bool operator==(const BackendSite&, const BackendSite&) = default;
};

struct BackendPolicy {
  std::string root;  // what allot manages in the backend (a root account, a label)
  BackendSite site;
  std::vector<SyncedCohort> cohorts;
  std::vector<SyncedTeam> teams;
  std::vector<SyncedPriorityClass> priority_classes;  // in the policy's order
  // Every flavor of the policy: a backend that tells kinds of accelerator
  // apart (Slurm's typed GRES) does so only when there are several.
  std::vector<std::string> flavors;

  friend bool operator==(const BackendPolicy&, const BackendPolicy&) = default;
};

struct SyncReport {
  std::vector<std::string> changes;   // one line per change made, in the order made
  std::vector<std::string> deferred;  // teams kept until their work ends
  std::vector<std::string> drift;     // dry run: objects changed in the backend by hand
};

class PolicySync {
 public:
  virtual ~PolicySync() = default;
  virtual Result<SyncReport> apply(const BackendPolicy& desired) = 0;
  // The dry run: what apply() would change now (and the drift), changing
  // nothing; the same checks of the site as apply().
  virtual Result<SyncReport> dry_run(const BackendPolicy& desired) = 0;
  virtual Result<BackendPolicy> observe() = 0;
};

}  // namespace allot
