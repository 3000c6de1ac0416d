#include "store/group_committer.h"

#include <utility>

#include "store/batch_rules.h"

namespace allot {

GroupCommitter::GroupCommitter(WriteGroup write_group)
    : write_group_(std::move(write_group)), writer_([this] { run_writer(); }) {}

GroupCommitter::~GroupCommitter() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
    paused_ = false;
  }
  changed_.notify_all();
  writer_.join();
}

Status GroupCommitter::commit(WriteBatch batch) {
  ALLOT_RETURN_IF_ERROR(validate_batch(batch));
  if (batch.empty()) return {};
  Pending pending{std::move(batch), Status(), {}};
  std::future<void> done = pending.done.get_future();
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return Status(ErrorCode::kUnavailable, "the store is closing");
    queue_.push_back(&pending);
    // Under the lock: once it is released, the committer may be closing.
    changed_.notify_all();
  }
  done.wait();
  return std::move(pending.status);
}

void GroupCommitter::run_writer() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || (!paused_ && !queue_.empty()); });
    if (queue_.empty()) return;  // stopping, and everything is committed
    const std::vector<Pending*> group(queue_.begin(), queue_.end());
    queue_.clear();
    lock.unlock();
    const bool committed = write_group_(group);
    lock.lock();
    if (committed) ++transactions_committed_;
    lock.unlock();
    // The promise is moved out first: its caller may return (destroying the
    // Pending) as soon as it is set.
    for (Pending* pending : group) std::promise<void>(std::move(pending->done)).set_value();
    lock.lock();
  }
}

void GroupCommitter::fail_group(const std::vector<Pending*>& group, const std::string& why,
                                const Status& cause) {
  const Status failure(ErrorCode::kUnavailable,
                       why + "; no batch of this transaction was stored: " + cause.message(),
                       cause.details());
  // A batch that failed on its own keeps its own, more precise error.
  for (Pending* pending : group) {
    if (pending->status.ok()) pending->status = failure;
  }
}

uint64_t GroupCommitter::transactions_committed() const {
  std::lock_guard lock(mutex_);
  return transactions_committed_;
}

void GroupCommitter::pause() {
  std::lock_guard lock(mutex_);
  paused_ = true;
}

void GroupCommitter::resume() {
  {
    std::lock_guard lock(mutex_);
    paused_ = false;
  }
  changed_.notify_all();
}

void GroupCommitter::wait_until_queued(size_t count) {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this, count] { return queue_.size() >= count; });
}

}  // namespace allot
