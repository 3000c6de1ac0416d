#include "scheduler/team_queues.h"

#include <algorithm>

namespace allot {

bool queue_before(const PendingWorkload& a, const PendingWorkload& b) {
  // Higher priority first, then earlier queue time, then lower id.
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.queued_at != b.queued_at) return a.queued_at < b.queued_at;
  return a.id < b.id;
}

TeamQueues::TeamQueues(const std::vector<PendingWorkload>& pending, int32_t team_count)
    : queues_(team_count), cursor_(team_count, 0), position_(pending.size(), 0) {
  std::vector<size_t> sizes(queues_.size(), 0);
  for (const PendingWorkload& w : pending) ++sizes[w.team.value()];
  for (size_t t = 0; t < queues_.size(); ++t) queues_[t].reserve(sizes[t]);
  for (uint32_t i = 0; i < pending.size(); ++i) queues_[pending[i].team.value()].push_back(i);
  for (auto& queue : queues_) {
    // Pending work kept by id is mostly in queue order already (ids follow
    // arrival): one linear check spares the sort of a deep backlog each cycle.
    const auto before = [&](uint32_t a, uint32_t b) {
      return queue_before(pending[a], pending[b]);
    };
    if (!std::is_sorted(queue.begin(), queue.end(), before)) {
      std::sort(queue.begin(), queue.end(), before);
    }
    for (size_t i = 0; i < queue.size(); ++i) position_[queue[i]] = static_cast<int32_t>(i + 1);
  }
}

}  // namespace allot
