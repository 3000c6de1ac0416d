// NodeTenancy: how many GPUs of each node hold work of teams within their
// nominal quota ("anchored" work), for one cycle, so that placement can pack
// such work together and leave other nodes to hold only borrowers' work, which
// a reclaim can clear whole for a team owed its quota.
//
// Anchored: every running workload (not stopping) of a team whose GPU usage
// in the workload's flavor is within its nominal, plus the cycle's admissions
// that leave their team within it. A team above its nominal holds no
// anchored work: a reclaim may take its work down to the nominal, and the
// guarantee tracker counts its work as reclaimable (guarantee_tracker.h).
// Victims stopped at once in the cycle are taken out.
//
// Contract: a value built from the snapshot; pure and deterministic. Not
// thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "scheduler/compiled_policy.h"
#include "scheduler/snapshot.h"

namespace allot {

class NodeTenancy {
 public:
  NodeTenancy(const CompiledPolicy& policy, std::span<const AdmittedWorkload> admitted);

  // Whether the snapshot's admitted workload at `index` is anchored.
  [[nodiscard]] bool anchored(uint32_t admitted_index) const { return anchored_[admitted_index]; }
  // An admission of the cycle: anchored unless it made its team borrow.
  void admitted(std::span<const PodSetRequest> pod_sets,
                std::span<const PodSetAssignment> assignment, bool borrowing);
  // The snapshot's admitted workload at `index` stopped in the cycle.
  void stopped(uint32_t index, const AdmittedWorkload& w);
  [[nodiscard]] int64_t anchored_gpus(NodeIndex node) const { return anchored_gpus_[node.value()]; }
  // Some work borrows: only then does placement pack anchored work.
  [[nodiscard]] bool any_borrowing() const { return any_borrowing_; }

 private:
  void add_anchored(std::span<const PodSetRequest> pod_sets,
                    std::span<const PodSetAssignment> assignment, int64_t sign);

  std::vector<bool> anchored_;  // per admitted workload
  std::vector<int64_t> anchored_gpus_;
  bool any_borrowing_ = false;
};

}  // namespace allot
