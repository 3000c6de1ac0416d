// AdmissionMemo: within one scheduling cycle, why a team's workload could not
// be admitted, reused for the next workload of that team that asks the same,
// as long as nothing the attempt reads has changed in between.
//
// Contract: an admission attempt (SchedulingCycle::try_admit) reads the
// cycle's quota usage, free and reserved capacity and reserved gangs' quota,
// and of the workload only its team, its pod set (pods, count, minCount,
// required flavor), its usable and pinned flavors, whether it is a guaranteed
// endpoint replica and its declared runtime. The caller counts every change
// of that state (an admission, capacity freed by a victim that stops at
// once, a reservation made or dropped) in `epoch`, and leaves out workloads
// whose attempt reads more: one holding a reservation (its own nodes and
// quota), one whose victims are stopping (quota held for it is taken out
// during its attempt). find() then gives exactly the failure the full attempt
// would give. Workloads of several pod sets are never remembered. Only the
// last failure per team is kept. Pure: no I/O, no clock.
#pragma once
#include <cstdint>
#include <vector>

#include "base/time.h"
#include "scheduler/pending_queues.h"
#include "scheduler/plan.h"
#include "scheduler/quota_tree.h"
#include "scheduler/snapshot.h"

namespace allot {

// Why an admission attempt failed, for the explanation.
struct AdmissionFailure {
  PendingReason reason = PendingReason::kQuotaExhausted;
  FlavorIndex flavor;
  QuotaShortfall shortfall;
};

class AdmissionMemo {
 public:
  explicit AdmissionMemo(int32_t teams) : last_(static_cast<size_t>(teams)) {}

  // The failure remembered for a workload of w's team that asked the same
  // at the same epoch, or null.
  [[nodiscard]] const AdmissionFailure* find(const PendingWorkload& w, const PendingFacts& facts,
                                             uint64_t epoch) const;
  void remember(const PendingWorkload& w, const PendingFacts& facts, uint64_t epoch,
                const AdmissionFailure& failure);

 private:
  // What an admission attempt reads of a workload besides its team.
  struct Shape {
    PodSetRequest pod_set;
    FlavorIndex pinned;
    bool usable = true;
    bool guaranteed = false;
    Duration max_runtime;

    friend bool operator==(const Shape&, const Shape&) = default;
  };
  struct Entry {
    bool valid = false;
    uint64_t epoch = 0;
    Shape shape;
    AdmissionFailure failure;
  };
  static Shape shape_of(const PendingWorkload& w, const PendingFacts& facts);

  std::vector<Entry> last_;  // per team
};

}  // namespace allot
