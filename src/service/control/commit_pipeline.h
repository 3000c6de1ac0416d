// CommitPipeline: the changes of allotd's existing state on their way to
// disk, in the order they were made (cluster_state.h), and their actions
// on their way to the executor once stored.
//
// Contract:
// - Changes are numbered 1, 2, ... in the order they are made. queue() is
//   called once per change, in that order, with the store's future for the
//   change's batch (Store::queue_commit; an invalid future when there is
//   nothing to store) and what to carry out once it is stored. It returns at
//   once: nobody waits for the disk while holding the state.
// - finish(change) returns once that change and every change before it are
//   stored. Finishers take the queue from its front one at a time: each
//   change's commit is waited for, then the watermark advances (reads wait
//   on it: durable_watermark.h), then the change's actions go through
//   `sequence` (in the order the changes were made; action_runner.h) and
//   wait in the pipeline until the change's owner takes them (take_ready)
//   to carry them out: a change queued by one thread and finished by another
//   is carried out by the first, so that nobody waits for the launches of
//   another. A change already finished returns at once.
// - A failed commit calls `on_failure`, which must not return (allotd
//   exits): later changes were made on top of it, and none of them is
//   finished, hence acknowledged, before it. (If it returns, as in tests,
//   the pipeline goes on.)
// Thread-safe. Lock order: the finisher's lock, then the queue's and the
// ready actions'; queue() takes only the queue's, so it may be called with
// the state held.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <utility>

#include "base/mutex.h"
#include "base/status.h"
#include "service/control/durable_watermark.h"
#include "service/control/server_state.h"

namespace allot {

class CommitPipeline {
 public:
  using Sequence = std::function<Actions(Actions)>;
  using OnFailure = std::function<void(const Status&)>;

  CommitPipeline(Sequence sequence, OnFailure on_failure)
      : sequence_(std::move(sequence)), on_failure_(std::move(on_failure)) {}
  CommitPipeline(const CommitPipeline&) = delete;
  CommitPipeline& operator=(const CommitPipeline&) = delete;

  void queue(uint64_t change, std::future<Status> stored, Actions actions)
      ALLOT_EXCLUDES(queue_mu_);
  // REQUIRES: `change` was queued.
  void finish(uint64_t change) ALLOT_EXCLUDES(finish_mu_, queue_mu_, ready_mu_);
  // The sequenced actions of a finished change, once (empty after).
  [[nodiscard]] Actions take_ready(uint64_t change) ALLOT_EXCLUDES(ready_mu_);

  // How far the changes are stored.
  [[nodiscard]] const DurableWatermark& stored() const { return stored_; }

 private:
  struct Entry {
    uint64_t change = 0;
    std::future<Status> stored;  // invalid: nothing to store
    Actions actions;
  };

  Sequence sequence_;
  OnFailure on_failure_;
  Mutex finish_mu_ ALLOT_ACQUIRED_BEFORE(queue_mu_, ready_mu_);
  uint64_t finished_ ALLOT_GUARDED_BY(finish_mu_) = 0;
  Mutex queue_mu_;
  std::deque<Entry> queue_ ALLOT_GUARDED_BY(queue_mu_);
  Mutex ready_mu_;
  std::map<uint64_t, Actions> ready_ ALLOT_GUARDED_BY(ready_mu_);  // by change
  DurableWatermark stored_;
};

}  // namespace allot
