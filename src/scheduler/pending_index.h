// PendingIndex: finds a pending workload's index in the snapshot by its id.
//
// Contract: holds a reference to the snapshot's pending vector, which must
// outlive it and not change. When the vector is sorted by id (as the
// simulator and allotd keep it), lookups binary-search it directly and
// nothing is allocated; otherwise a sorted (id, index) copy is built once.
// Either way a lookup is O(log pending) and the build O(pending).
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "scheduler/snapshot.h"

namespace allot {

class PendingIndex {
 public:
  explicit PendingIndex(const std::vector<PendingWorkload>& pending);

  // The index of the pending workload with this id, if any.
  [[nodiscard]] std::optional<uint32_t> find(WorkloadId id) const;

 private:
  const std::vector<PendingWorkload>& pending_;
  bool sorted_ = true;
  std::vector<std::pair<uint64_t, uint32_t>> by_id_;  // only when pending_ is not sorted
};

}  // namespace allot
