#include "scheduler/pending_index.h"

#include <algorithm>

namespace allot {

PendingIndex::PendingIndex(const std::vector<PendingWorkload>& pending) : pending_(pending) {
  sorted_ = std::is_sorted(
      pending.begin(), pending.end(),
      [](const PendingWorkload& a, const PendingWorkload& b) { return a.id < b.id; });
  if (sorted_) return;
  by_id_.reserve(pending.size());
  for (uint32_t i = 0; i < pending.size(); ++i) by_id_.emplace_back(pending[i].id.value(), i);
  std::sort(by_id_.begin(), by_id_.end());
}

std::optional<uint32_t> PendingIndex::find(WorkloadId id) const {
  if (sorted_) {
    auto it =
        std::lower_bound(pending_.begin(), pending_.end(), id,
                         [](const PendingWorkload& w, WorkloadId value) { return w.id < value; });
    if (it == pending_.end() || it->id != id) return std::nullopt;
    return static_cast<uint32_t>(it - pending_.begin());
  }
  auto it = std::lower_bound(by_id_.begin(), by_id_.end(), std::make_pair(id.value(), uint32_t{0}));
  if (it == by_id_.end() || it->first != id.value()) return std::nullopt;
  return it->second;
}

}  // namespace allot
