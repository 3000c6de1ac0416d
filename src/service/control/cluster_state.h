// ClusterState: allotd's state in memory (ServerState), the locks that guard
// it, and the path of its changes to disk and out to the executor: every
// room of the control plane (policy, workloads, nodes, the admission loop,
// health) reads and changes the state through here.
//
// Contract:
// - A change of existing state holds a ClusterWriter, and a ChangeLock from
//   the change in memory to the queueing of its batch (ChangeLock::queue):
//   the batch is queued with the state still held exclusively, so batches
//   reach the store in the order the changes were made, before anyone could
//   see them or build on them (new workloads' commits included: a delete
//   that frees a name is queued before a submit can take it).
// - Durability: nobody waits for the disk with the state or the writer lock
//   held. A ClusterWriter, when it ends, lets go of the writer lock, then
//   waits until every change made under it, and every change before them, is
//   stored (fsync), and carries out their actions (launches, stops) on the
//   executor, each workload's in the order they were decided
//   (commit_pipeline.h, action_runner.h); so a use case answers only what is
//   stored, and concurrent changes share group commits. A failed commit of such a change ends the
//   process, since decisions in memory cannot be taken back (the store is the truth a restart
//   uses). commit_creation() is for new workloads only: it may fail (kUnavailable) and commits
//   concurrently with other creations.
// - Reads answer only what is stored: a CommittedRead holds the state shared;
//   on leaving it lets go of the state, then waits until every change it
//   could have seen is stored (DurableWatermark). Writers never wait for it.
// - Lock order: the policy gate, the writer lock, then mutex(); nothing is
//   taken while mutex() is held except the loop signal's, the commit queue's
//   (and the store's queue under it) and the watermark's own locks. Waiting
//   for commits (finish) takes the pipeline's lock with none of these held.
// Thread-safe; the lock discipline is checked by Clang (base/mutex.h).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/logger.h"
#include "base/mutex.h"
#include "base/status.h"
#include "service/control/access_control.h"
#include "service/control/action_runner.h"
#include "service/control/change_feed.h"
#include "service/control/commit_pipeline.h"
#include "service/control/control_audit.h"
#include "service/control/policy_gate.h"
#include "service/control/server_state.h"
#include "store/store.h"

namespace allot {

// What a writer waits for: its last change, and those of its changes that
// have actions to carry out.
struct CommitTicket {
  uint64_t last = 0;  // 0: none
  std::vector<uint64_t> with_actions;

  void add(const CommitTicket& later) {
    last = std::max(last, later.last);
    with_actions.insert(with_actions.end(), later.with_actions.begin(), later.with_actions.end());
  }
};

class ClusterState {
 public:
  // Decisions are carried out on `actions` once stored.
  ClusterState(Store& store, Logger& logger, AccessControl& access, ActionRunner& actions);
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
  // Tells the watchers' feed (set_feed) of a batch stored outside the
  // change pipeline (a policy applied or deleted: policy_service.h), once
  // what it changed is installed, so that a watcher's next read sees it.
  void publish(const WriteBatch& batch) ALLOT_EXCLUDES(mu_) {
    if (feed_ != nullptr && !batch.empty()) feed_->publish(batch);
  }

  // Workload ids: unique forever, from the highest ever stored.
  WorkloadId allocate_id() { return WorkloadId(next_id_.fetch_add(1)); }
  void set_next_id(WorkloadId id) { next_id_ = id.value(); }

  Store& store() { return store_; }
  // Who may do what: every use case asks it first (access_control.h).
  const AccessControl& access() const { return access_; }
  // For the policy room, which installs the applied RBAC objects in it.
  AccessControl& access() { return access_; }

  // Returns once the ticket's changes (ClusterWriter::defer_wait) and every
  // change before them are stored, and its actions carried out.
  void finish(const CommitTicket& ticket) ALLOT_EXCLUDES(writer_mu_, mu_);

  [[nodiscard]] Logger& logger() const { return logger_; }

  // For tests: returns once `count` reads wait for a commit to land.
  void wait_until_reads_wait(size_t count) const { pipeline_.stored().wait_until_waiting(count); }

  // The audit log's sink of the control plane's own decisions (admissions,
  // preemptions, evictions: control_audit.h), given each as its change is
  // queued. REQUIRES: set before start; may be empty (no audit log).
  void set_audit(ControlAuditSink sink) { audit_ = std::move(sink); }
  // Gives the audit sink one record of the control plane's own (none
  // without an audit log). REQUIRES: the state held exclusively.
  void audit_control(governance::AuditEvent event) {
    if (audit_) audit_(std::move(event));
  }
  // Where every batch goes as it is queued (new workloads' once stored):
  // the watchers' change feed (change_feed.h). REQUIRES: set before start;
  // may be null (none). Must outlive this.
  void set_feed(ChangeFeed* feed) { feed_ = feed; }
  // For A/B measurements of metering's cost only (allotd --metering off):
  // false drops the ledger's parts (allocation and GPU utilisation
  // intervals) from every batch as it is queued, so nothing of metering is
  // stored or told; reports then show nothing. REQUIRES: set before start.
  void set_metering(bool on) { metering_ = on; }
  // How the scheduler of every policy installed from now on plans.
  // REQUIRES: set before start.
  void set_scheduler_options(const SchedulerOptions& options) {
    WriterLock lock(mu_);
    state_.scheduler_options = options;
  }

 private:
  friend class ClusterWriter;
  friend class ChangeLock;
  friend class CommittedRead;

  // Gives the audit sink the records of `batch`'s control-plane decisions.
  // REQUIRES: mu_ held exclusively, by the ChangeLock that queues `batch`
  // (which the analysis cannot see inside ChangeLock's members).
  void audit_queued(const WriteBatch& batch) ALLOT_NO_THREAD_SAFETY_ANALYSIS;
  // Keeps the workloads' activity index (workload_activity.h) in step with
  // `batch`. REQUIRES: as audit_queued().
  void track_queued(const WriteBatch& batch) ALLOT_NO_THREAD_SAFETY_ANALYSIS;

  // Ends the process: a change of existing state could not be stored.
  [[noreturn]] void die(const Status& status);

  Store& store_;
  AccessControl& access_;
  Logger& logger_;
  ActionRunner& actions_;
  ControlAuditSink audit_;
  ChangeFeed* feed_ = nullptr;
  bool metering_ = true;
  PolicyGate policy_gate_ ALLOT_ACQUIRED_BEFORE(writer_mu_, mu_);
  Mutex writer_mu_ ALLOT_ACQUIRED_BEFORE(mu_);
  mutable SharedMutex mu_;
  ServerState state_ ALLOT_GUARDED_BY(mu_);
  // Changes of existing state made so far; counted under writer_mu_ and mu_,
  // read by readers under mu_ shared.
  std::atomic<uint64_t> changes_made_{0};
  CommitPipeline pipeline_;
  std::atomic<uint64_t> next_id_{1};
};

// The right to change existing state: holds the cluster's writer lock, which
// orders changes, for its scope. When it ends it lets go of the lock, then
// waits until every change made under it is stored and carried out (see the
// contract above), unless the caller took that wait over (defer_wait).
class ALLOT_SCOPED_CAPABILITY ClusterWriter {
 public:
  explicit ClusterWriter(ClusterState& cluster) ALLOT_ACQUIRE(cluster.writer_mu_);
  ~ClusterWriter() ALLOT_RELEASE();
  ClusterWriter(const ClusterWriter&) = delete;
  ClusterWriter& operator=(const ClusterWriter&) = delete;

  // The changes made under this writer so far, for a caller that waits for
  // them later with ClusterState::finish(); the writer's end does not.
  [[nodiscard]] CommitTicket defer_wait();

 private:
  friend class ChangeLock;

  ClusterState& cluster_;
  CommitTicket ticket_;  // the changes made under this writer, not deferred
};

// Holds the state exclusively to change it, numbering the change. The change
// ends with its batch queued for commit (queue(), or an empty one at the
// end of the scope), with the state still held. The writer is the proof
// that the writer lock is held.
class ALLOT_SCOPED_CAPABILITY ChangeLock {
 public:
  ChangeLock(ClusterState& cluster, ClusterWriter& writer) ALLOT_ACQUIRE(cluster.mu_);
  ~ChangeLock() ALLOT_RELEASE();
  ChangeLock(const ChangeLock&) = delete;
  ChangeLock& operator=(const ChangeLock&) = delete;

  // Queues the change's batch for commit behind every change before it,
  // with the actions to carry out once it is stored; returns at once (the
  // writer waits). At most once per ChangeLock.
  void queue(WriteBatch batch, Actions actions = {});

 private:
  ClusterState& cluster_;
  ClusterWriter& writer_;
  uint64_t change_;
  bool queued_ = false;
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
