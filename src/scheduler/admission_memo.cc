#include "scheduler/admission_memo.h"

namespace allot {

AdmissionMemo::Shape AdmissionMemo::shape_of(const PendingWorkload& w, const PendingFacts& facts) {
  return {w.pod_sets[0], facts.pinned, facts.usable, facts.guaranteed, w.max_runtime};
}

const AdmissionFailure* AdmissionMemo::find(const PendingWorkload& w, const PendingFacts& facts,
                                            uint64_t epoch) const {
  if (w.pod_sets.size() != 1) return nullptr;
  const Entry& entry = last_[w.team.value()];
  if (!entry.valid || entry.epoch != epoch || !(entry.shape == shape_of(w, facts))) return nullptr;
  return &entry.failure;
}

void AdmissionMemo::remember(const PendingWorkload& w, const PendingFacts& facts, uint64_t epoch,
                             const AdmissionFailure& failure) {
  if (w.pod_sets.size() != 1) return;
  last_[w.team.value()] = {true, epoch, shape_of(w, facts), failure};
}

}  // namespace allot
