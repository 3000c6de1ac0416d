#include "scheduler/team_queues.h"

#include <algorithm>
#include <tuple>

namespace allot {

bool queue_before(const PendingWorkload& a, const PendingWorkload& b) {
  return std::make_tuple(-a.priority, a.queued_at, a.id) <
         std::make_tuple(-b.priority, b.queued_at, b.id);
}

TeamQueues::TeamQueues(const std::vector<PendingWorkload>& pending, int32_t team_count)
    : queues_(team_count), cursor_(team_count, 0), position_(pending.size(), 0) {
  for (uint32_t i = 0; i < pending.size(); ++i) queues_[pending[i].team.value()].push_back(i);
  for (auto& queue : queues_) {
    std::sort(queue.begin(), queue.end(),
              [&](uint32_t a, uint32_t b) { return queue_before(pending[a], pending[b]); });
    for (size_t i = 0; i < queue.size(); ++i) position_[queue[i]] = static_cast<int32_t>(i + 1);
  }
}

}  // namespace allot
