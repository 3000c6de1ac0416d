#include "service/control/cluster_state.h"

#include <cstdlib>
#include <utility>

namespace allot {

ClusterState::ClusterState(Store& store, Logger& logger, std::string checkpoint_root,
                           AccessControl& access)
    : store_(store), access_(access), logger_(logger) {
  WriterLock lock(mu_);
  state_.checkpoint_root = std::move(checkpoint_root);
}

void ClusterState::commit_or_die(WriteBatch batch) {
  const uint64_t made = changes_made_.load();
  const Status status = batch.empty() ? Status() : store_.commit(std::move(batch));
  if (status.ok()) {
    stored_.advance(made);
    return;
  }
  // The decisions in memory are not on disk and cannot be taken back; carrying
  // them out could lose them. The store on disk is the truth a restart uses.
  logger_.error("fatal: cannot store the control plane's decisions; exiting",
                {{"error", status.to_string()}});
  std::_Exit(70);
}

void ClusterState::nothing_to_store() { stored_.advance(changes_made_.load()); }

Status ClusterState::commit_creation(WriteBatch batch) { return store_.commit(std::move(batch)); }

ClusterWriter::ClusterWriter(ClusterState& cluster) : cluster_(cluster) {
  cluster_.writer_mu_.lock();
}

ClusterWriter::~ClusterWriter() { cluster_.writer_mu_.unlock(); }

ChangeLock::ChangeLock(ClusterState& cluster, const ClusterWriter& /*writer*/) : cluster_(cluster) {
  cluster_.mu_.lock();
  cluster_.changes_made_.fetch_add(1);
}

ChangeLock::~ChangeLock() { cluster_.mu_.unlock(); }

CommittedRead::CommittedRead(const ClusterState& cluster) : cluster_(cluster) {
  cluster_.mu_.lock_shared();
  seen_ = cluster_.changes_made_.load();
}

CommittedRead::~CommittedRead() {
  cluster_.mu_.unlock_shared();
  cluster_.stored_.wait_until_stored(seen_);
}

}  // namespace allot
