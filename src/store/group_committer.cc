#include "store/group_committer.h"

#include <iterator>
#include <memory>
#include <utility>

#include "store/batch_rules.h"

namespace allot {

namespace {

std::future<Status> ready(Status status) {
  std::promise<Status> outcome;
  outcome.set_value(std::move(status));
  return outcome.get_future();
}

}  // namespace

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

std::future<Status> GroupCommitter::queue(WriteBatch batch) {
  if (Status valid = validate_batch(batch); !valid.ok()) return ready(std::move(valid));
  if (batch.empty()) return ready(Status());
  auto pending = std::make_unique<Pending>(Pending{std::move(batch), Status(), {}});
  std::future<Status> outcome = pending->done.get_future();
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return ready(Status(ErrorCode::kUnavailable, "the store is closing"));
    queue_.push_back(std::move(pending));
    // Under the lock: once it is released, the committer may be closing.
    changed_.notify_all();
  }
  return outcome;
}

void GroupCommitter::run_writer() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || (!paused_ && !queue_.empty()); });
    if (queue_.empty()) return;  // stopping, and everything is committed
    std::vector<std::unique_ptr<Pending>> owned(std::make_move_iterator(queue_.begin()),
                                                std::make_move_iterator(queue_.end()));
    queue_.clear();
    lock.unlock();
    std::vector<Pending*> group;
    group.reserve(owned.size());
    for (const auto& pending : owned) group.push_back(pending.get());
    const bool committed = write_group_(group);
    lock.lock();
    if (committed) ++transactions_committed_;
    lock.unlock();
    for (const auto& pending : owned) pending->done.set_value(std::move(pending->status));
    owned.clear();
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
