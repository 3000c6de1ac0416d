#include "service/control/kept_pending_queues.h"

#include <algorithm>
#include <optional>
#include <utility>

namespace allot {
namespace {

// More changes than this share of the pending work: a rebuild is no dearer
// (as PendingQueues::update judges), and the diff stops there.
constexpr size_t kRebuildShare = 4;

bool sorted_by_id(const std::vector<PendingWorkload>& pending) {
  return std::is_sorted(
      pending.begin(), pending.end(),
      [](const PendingWorkload& a, const PendingWorkload& b) { return a.id < b.id; });
}

}  // namespace

const PendingQueues& KeptPendingQueues::refresh(const std::shared_ptr<const Scheduler>& scheduler,
                                                const std::vector<PendingWorkload>& pending) {
  const CompiledPolicy& policy = scheduler->policy();
  std::optional<std::vector<WorkloadId>> touched;
  if (scheduler == scheduler_ && sorted_by_id(pending)) touched = touched_by(policy, pending);
  if (!touched) {  // another policy, an order not by id, or too many changes
    scheduler_ = scheduler;
    queues_ = PendingQueues(policy, pending);
    ++rebuilds_;
    return queues_;
  }
  queues_.update(policy, pending, std::move(*touched));
  ++updates_;
  return queues_;
}

std::optional<std::vector<WorkloadId>> KeptPendingQueues::touched_by(
    const CompiledPolicy& policy, const std::vector<PendingWorkload>& pending) const {
  const std::vector<PendingFacts>& kept = queues_.facts();
  std::vector<WorkloadId> touched;
  size_t i = 0;
  size_t j = 0;
  while (i < kept.size() || j < pending.size()) {
    if (touched.size() * kRebuildShare > pending.size()) return std::nullopt;
    if (j == pending.size() || (i < kept.size() && kept[i].id < pending[j].id)) {
      touched.push_back(kept[i++].id);  // left
    } else if (i == kept.size() || pending[j].id < kept[i].id) {
      touched.push_back(pending[j++].id);  // entered
    } else {
      if (!(pending_facts_of(policy, pending[j]) == kept[i])) touched.push_back(pending[j].id);
      ++i;
      ++j;
    }
  }
  return touched;
}

}  // namespace allot
