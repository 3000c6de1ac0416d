#include "service/control/commit_pipeline.h"

#include <utility>

#include "base/check.h"

namespace allot {

void CommitPipeline::queue(uint64_t change, std::future<Status> stored, Actions actions) {
  MutexLock lock(queue_mu_);
  ALLOT_CHECK(queue_.empty() || queue_.back().change < change);
  queue_.push_back({change, std::move(stored), std::move(actions)});
}

void CommitPipeline::finish(uint64_t change) {
  MutexLock finishing(finish_mu_);
  while (finished_ < change) {
    Entry entry;
    {
      MutexLock lock(queue_mu_);
      ALLOT_CHECK(!queue_.empty());
      entry = std::move(queue_.front());
      queue_.pop_front();
    }
    const Status status = entry.stored.valid() ? entry.stored.get() : Status();
    if (!status.ok()) on_failure_(status);
    finished_ = entry.change;
    stored_.advance(entry.change);
    if (entry.actions.empty()) continue;
    Actions ready = sequence_(std::move(entry.actions));
    MutexLock lock(ready_mu_);
    ready_.emplace(entry.change, std::move(ready));
  }
}

Actions CommitPipeline::take_ready(uint64_t change) {
  MutexLock lock(ready_mu_);
  const auto it = ready_.find(change);
  if (it == ready_.end()) return {};
  Actions ready = std::move(it->second);
  ready_.erase(it);
  return ready;
}

}  // namespace allot
