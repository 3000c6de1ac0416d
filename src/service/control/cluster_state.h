// ClusterState: allotd's state in memory (ServerState), the locks that guard
// it, and the path of its changes to disk: every room of the control plane
// (policy, workloads, nodes, the admission loop, health) reads and changes
// the state through here.
//
// Contract:
// - Durability: commit_or_die() returns only once the Store committed the
//   batch (fsync); a failed commit there ends the process, since decisions
//   in memory cannot be taken back (the store is the truth a restart uses).
//   commit_creation() is for new workloads only: it may fail (kUnavailable)
//   and commits concurrently with other creations (group commit).
// - Ordering: a change of existing state holds a ClusterWriter from the change in
//   memory to its commit, so commits land in the order changes were made.
//   Inside it, ChangeLock holds the state exclusively and numbers the change.
// - Reads answer only what is stored: a CommittedRead holds the state shared;
//   on leaving it lets go of the state, then waits until every change it
//   could have seen is stored (DurableWatermark). Writers never wait for it.
// - Lock order: the writer lock, the policy gate, then mutex(); nothing is taken while mutex() is
//   held except the loop signal's and the watermark's own locks.
// Thread-safe; the lock discipline is checked by Clang (base/mutex.h).
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <utility>

#include "base/logger.h"
#include "base/mutex.h"
#include "base/status.h"
#include "service/control/access_control.h"
#include "service/control/durable_watermark.h"
#include "service/control/policy_gate.h"
#include "service/control/server_state.h"
#include "store/store.h"

namespace allot {

class ClusterState {
 public:
  ClusterState(Store& store, Logger& logger, std::string checkpoint_root, AccessControl& access);
  ClusterState(const ClusterState&) = delete;
  ClusterState& operator=(const ClusterState&) = delete;

  // Orders submits with policy changes (policy_gate.h).
  PolicyGate& policy_gate() ALLOT_RETURN_CAPABILITY(policy_gate_) { return policy_gate_; }

  // The lock of the state: shared to read, exclusive to change.
  SharedMutex& mutex() ALLOT_RETURN_CAPABILITY(mu_) { return mu_; }

  ServerState& state() ALLOT_REQUIRES(mu_) { return state_; }
  // The state to read, under the lock held shared (or exclusively).
  const ServerState& view() const ALLOT_REQUIRES_SHARED(mu_) { return state_; }

  // Commits new workloads; their failure changes nothing that exists.
  Status commit_creation(WriteBatch batch) ALLOT_EXCLUDES(mu_);

  // Workload ids: unique forever, from the highest ever stored.
  WorkloadId allocate_id() { return WorkloadId(next_id_.fetch_add(1)); }
  void set_next_id(WorkloadId id) { next_id_ = id.value(); }

  Store& store() { return store_; }
  // Who may do what: every use case asks it first (access_control.h).
  const AccessControl& access() const { return access_; }
  // For the policy room, which installs the applied RBAC objects in it.
  AccessControl& access() { return access_; }

  // For tests: returns once `count` reads wait for a commit to land.
  void wait_until_reads_wait(size_t count) const { stored_.wait_until_waiting(count); }

 private:
  friend class ClusterWriter;
  friend class ChangeLock;
  friend class CommittedRead;

  void commit_or_die(WriteBatch batch);
  void nothing_to_store();

  Store& store_;
  AccessControl& access_;
  Logger& logger_;
  Mutex writer_mu_ ALLOT_ACQUIRED_BEFORE(policy_gate_, mu_);
  PolicyGate policy_gate_ ALLOT_ACQUIRED_BEFORE(mu_);
  mutable SharedMutex mu_;
  ServerState state_ ALLOT_GUARDED_BY(mu_);
  // Changes of existing state made so far; counted under writer_mu_ and mu_,
  // read by readers under mu_ shared.
  std::atomic<uint64_t> changes_made_{0};
  DurableWatermark stored_;
  std::atomic<uint64_t> next_id_{1};
};

// The right to change existing state: holds the cluster's writer lock, which
// orders changes with their commits, for its scope.
class ALLOT_SCOPED_CAPABILITY ClusterWriter {
 public:
  explicit ClusterWriter(ClusterState& cluster) ALLOT_ACQUIRE(cluster.writer_mu_);
  ~ClusterWriter() ALLOT_RELEASE();
  ClusterWriter(const ClusterWriter&) = delete;
  ClusterWriter& operator=(const ClusterWriter&) = delete;

  // Commits the batch, then marks every change made so far as stored. A
  // failed commit ends the process (see the contract above).
  // REQUIRES: no ChangeLock held.
  void commit_or_die(WriteBatch batch) { cluster_.commit_or_die(std::move(batch)); }
  // Marks every change made so far as stored, when none needs a commit.
  void nothing_to_store() { cluster_.nothing_to_store(); }

 private:
  ClusterState& cluster_;
};

// Holds the state exclusively to change it ahead of the writer's
// commit_or_die(), numbering the change for the watermark. The writer is the
// proof that the writer lock is held.
class ALLOT_SCOPED_CAPABILITY ChangeLock {
 public:
  ChangeLock(ClusterState& cluster, const ClusterWriter& writer) ALLOT_ACQUIRE(cluster.mu_);
  ~ChangeLock() ALLOT_RELEASE();
  ChangeLock(const ChangeLock&) = delete;
  ChangeLock& operator=(const ChangeLock&) = delete;

 private:
  ClusterState& cluster_;
};

// Holds the state shared for reading; on leaving, lets go of it and waits
// until every change it could have seen is stored.
class ALLOT_SCOPED_CAPABILITY CommittedRead {
 public:
  explicit CommittedRead(const ClusterState& cluster) ALLOT_ACQUIRE_SHARED(cluster.mu_);
  ~CommittedRead() ALLOT_RELEASE();
  CommittedRead(const CommittedRead&) = delete;
  CommittedRead& operator=(const CommittedRead&) = delete;

 private:
  const ClusterState& cluster_;
  uint64_t seen_;
};

}  // namespace allot
