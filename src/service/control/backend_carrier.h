// BackendCarrier: allot's policy carried into an execution backend that
// enforces limits of its own (Slurm: issue 13, item 1), through the
// PolicySync port, when the policy is applied, deleted from, and at start.
//
// Contract:
// - carry(next, dry_run) first checks that `next` fits the backend allotd
//   runs: a Cluster with `backend: slurm` on an allotd without a PolicySync,
//   or a Cluster of another backend on one with it, is kFailedPrecondition
//   naming Cluster/<name>.spec.backend, and nothing is changed. A policy with
//   no Cluster, or without a PolicySync and a Slurm cluster, carries nothing.
// - Then it builds the BackendPolicy (service/backend_sync/backend_policy.h)
//   with `users` associated to every team (the identities the executor
//   submits as) and the Cluster's spec.slurm as the site, and applies it (or,
//   with dry_run, asks what would change). The backend's refusal keeps its
//   code (kFailedPrecondition when the site is wrong and nothing changed,
//   kUnavailable when a change failed midway: the next apply finishes it)
//   with "the policy was not applied: " before its words: the caller stores
//   nothing then.
// - Answers the backend's change lines (and "drift: ..." lines on a dry run).
// - Thread-compatible: the PolicyService calls it under its apply mutex.
#pragma once

#include <string>
#include <vector>

#include "backends/node_inventory.h"
#include "backends/policy_sync.h"
#include "base/result.h"
#include "model/cluster.h"
#include "service/control/policy_state.h"

namespace allot {

// The ports of a backend that owns its nodes and limits (app/ fills them for
// `allotd --backend slurm`); all null for the local backend.
struct BackendPorts {
  PolicySync* policy_sync = nullptr;
  NodeInventory* inventory = nullptr;  // cordon/drain carried into the backend
  std::vector<std::string> users;      // who submits for every team
  std::string root = "allot";          // allot's root account in the backend
};

class BackendCarrier {
 public:
  explicit BackendCarrier(BackendPorts ports) : ports_(std::move(ports)) {}

  Result<std::vector<std::string>> carry(const PolicyState& next, bool dry_run);
  [[nodiscard]] bool active() const { return ports_.policy_sync != nullptr; }

 private:
  BackendPorts ports_;
};

}  // namespace allot
