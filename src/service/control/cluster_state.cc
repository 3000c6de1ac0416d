#include "service/control/cluster_state.h"

#include <cstdlib>
#include <future>
#include <utility>

#include "base/check.h"

namespace allot {

ClusterState::ClusterState(Store& store, Logger& logger, AccessControl& access,
                           ActionRunner& actions)
    : store_(store),
      access_(access),
      logger_(logger),
      actions_(actions),
      pipeline_([&actions](Actions stored) { return actions.sequence(std::move(stored)); },
                [this](const Status& status) { die(status); }) {
  WriterLock lock(mu_);
  state_.checkpoint_dir = [&executor = actions.executor()](const CheckpointOwner& owner) {
    return executor.checkpoint_dir(owner);
  };
  state_.backend_job = [&executor = actions.executor()](WorkloadId workload) {
    return executor.backend_job(workload);
  };
}

void ClusterState::die(const Status& status) {
  // The decisions in memory are not on disk and cannot be taken back; carrying
  // them out could lose them. The store on disk is the truth a restart uses.
  logger_.error("fatal: cannot store the control plane's decisions; exiting",
                {{"error", status.to_string()}});
  std::_Exit(70);
}

void ClusterState::finish(const CommitTicket& ticket) {
  pipeline_.finish(ticket.last);
  for (uint64_t change : ticket.with_actions) actions_.carry_out(pipeline_.take_ready(change));
}

void ClusterState::audit_queued(const WriteBatch& batch) {
  if (!audit_) return;
  for (governance::AuditEvent& event : control_audit_events(batch, state_.workloads)) {
    audit_(std::move(event));
  }
}

void ClusterState::track_queued(const WriteBatch& batch) {
  state_.activity.track_batch(batch, state_.workloads);
}

Status ClusterState::commit_creation(WriteBatch batch) {
  if (feed_ == nullptr) return store_.commit(std::move(batch));
  const WriteBatch told = batch;
  ALLOT_RETURN_IF_ERROR(store_.commit(std::move(batch)));
  feed_->publish(told);
  return Status();
}

ClusterWriter::ClusterWriter(ClusterState& cluster) : cluster_(cluster) {
  cluster_.writer_mu_.lock();
}

ClusterWriter::~ClusterWriter() {
  cluster_.writer_mu_.unlock();
  if (ticket_.last != 0) cluster_.finish(ticket_);
}

CommitTicket ClusterWriter::defer_wait() { return std::exchange(ticket_, {}); }

ChangeLock::ChangeLock(ClusterState& cluster, ClusterWriter& writer)
    : cluster_(cluster), writer_(writer) {
  cluster_.mu_.lock();
  change_ = cluster_.changes_made_.fetch_add(1) + 1;
  writer_.ticket_.last = change_;
}

ChangeLock::~ChangeLock() {
  // Numbered changes are queued without a gap, so that the watermark passes them.
  if (!queued_) cluster_.pipeline_.queue(change_, {}, {});
  cluster_.mu_.unlock();
}

void ChangeLock::queue(WriteBatch batch, Actions actions) {
  ALLOT_CHECK(!queued_);
  queued_ = true;
  cluster_.audit_queued(batch);
  if (!cluster_.metering_) {
    batch.put_allocations.clear();
    batch.put_gpu_utilization.clear();
  }
  cluster_.track_queued(batch);
  if (cluster_.feed_ != nullptr && !batch.empty()) cluster_.feed_->publish(batch);
  std::future<Status> stored;
  if (!batch.empty()) stored = cluster_.store_.queue_commit(std::move(batch));
  if (!actions.empty()) writer_.ticket_.with_actions.push_back(change_);
  cluster_.pipeline_.queue(change_, std::move(stored), std::move(actions));
}

CommittedRead::CommittedRead(const ClusterState& cluster) : cluster_(cluster) {
  cluster_.mu_.lock_shared();
  seen_ = cluster_.changes_made_.load();
}

CommittedRead::~CommittedRead() {
  cluster_.mu_.unlock_shared();
  cluster_.pipeline_.stored().wait_until_stored(seen_);
}

}  // namespace allot
