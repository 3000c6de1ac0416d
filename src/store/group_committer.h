// GroupCommitter: the group commit that the database stores share. queue()
// queues a batch and returns a future (commit() waits for it); one writer
// thread takes every batch queued at that moment and hands them, as one
// group, to the store's `WriteGroup`, which runs them in one transaction and
// sets each batch's own status.
//
// Contract:
// - queue() checks the batch first (batch_rules.h: validate_batch) and gives
//   a ready future for an invalid or empty one; otherwise its future gets the
//   status the WriteGroup set for that batch, after the group's transaction
//   ended. Callers are woken each through their own promise (no herd on one
//   mutex), in queue order. commit() is queue() and a wait.
// - Groups run one at a time, in the order their batches were queued.
// - The destructor lets the writer take what is queued, then joins it;
//   commit() calls that start after the destructor began fail with
//   kUnavailable. REQUIRES: the WriteGroup stays valid until the destructor
//   returned (declare the committer after what the WriteGroup uses).
// - pause()/resume()/wait_until_queued() let tests queue batches without
//   depending on timing.
// Thread-safe.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "base/status.h"
#include "store/store.h"

namespace allot {

class GroupCommitter {
 public:
  // Owned by the queue, then by the writer thread until its group ended.
  struct Pending {
    WriteBatch batch;
    Status status;  // set by the WriteGroup
    std::promise<Status> done;
  };
  // Runs one transaction for the group and sets each Pending's status; returns
  // true when the transaction committed.
  using WriteGroup = std::function<bool(const std::vector<Pending*>& group)>;

  explicit GroupCommitter(WriteGroup write_group);
  ~GroupCommitter();
  GroupCommitter(const GroupCommitter&) = delete;
  GroupCommitter& operator=(const GroupCommitter&) = delete;

  std::future<Status> queue(WriteBatch batch);
  Status commit(WriteBatch batch) { return queue(std::move(batch)).get(); }

  // Transactions committed so far (groups whose WriteGroup returned true).
  [[nodiscard]] uint64_t transactions_committed() const;

  void pause();
  void resume();
  void wait_until_queued(size_t count);

  // The WriteGroup of a store whose writer has begin(), apply(batch),
  // in_transaction(), commit() and rollback(): one transaction for the group,
  // each batch applied alone (its own savepoint: a failing batch keeps its
  // error and the others go on); when the transaction cannot start, is lost
  // or cannot commit, every batch of it fails (fail_group).
  template <typename Writer>
  static bool write_in_one_transaction(Writer& writer, const std::vector<Pending*>& group);

  // Gives every batch of `group` that has not failed on its own the
  // kUnavailable error "WHY; no batch of this transaction was stored: CAUSE".
  static void fail_group(const std::vector<Pending*>& group, const std::string& why,
                         const Status& cause);

 private:
  void run_writer();

  WriteGroup write_group_;
  mutable std::mutex mutex_;         // guards everything below but the thread
  std::condition_variable changed_;  // a batch was queued, or pause/stop changed
  std::deque<std::unique_ptr<Pending>> queue_;
  uint64_t transactions_committed_ = 0;
  bool paused_ = false;
  bool stopping_ = false;
  std::thread writer_;  // last: starts once everything above exists
};

template <typename Writer>
bool GroupCommitter::write_in_one_transaction(Writer& writer, const std::vector<Pending*>& group) {
  if (Status begun = writer.begin(); !begun.ok()) {
    fail_group(group, "the store could not start a transaction", begun);
    return false;
  }
  for (Pending* pending : group) {
    pending->status = writer.apply(pending->batch);
    // The database dropped the transaction (an I/O error, a full disk, a
    // savepoint that could not be undone): nothing of it is safe to commit.
    if (!writer.in_transaction()) {
      writer.rollback();
      fail_group(group, "the store lost its transaction", pending->status);
      return false;
    }
  }
  if (Status committed = writer.commit(); !committed.ok()) {
    writer.rollback();
    fail_group(group, "the store could not commit", committed);
    return false;
  }
  return true;
}

}  // namespace allot
