// InflightPreemptions: preemptions in flight are capacity on its way to its
// beneficiary (DESIGN.md section 3, "Preemption").
//
// Contract: built from the snapshot's stopping victims (terminating, with the
// pending workload they were preempted for). While a beneficiary waits for
// them it gets no second victim for the same need, and the part of its need
// that its victims do not hold (capacity already freed, or free when it
// preempted) is held for it in quota so that nobody else takes it
// meanwhile: per resource, max(0, need - what the victims still hold), in the
// flavor its victims were preempted in. The hold is kept from other teams, not
// from work of the beneficiary's own team queued before it (the cycle takes it
// out while such work is ordered and tried: SchedulingCycle::set_held_behind). A victim whose
// beneficiary no longer waits (cancelled, admitted elsewhere) holds its capacity until it stops,
// and then it is released like any other. Plain value; pure.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "base/quantity.h"
#include "scheduler/ids.h"
#include "scheduler/snapshot.h"

namespace allot {

class InflightPreemptions {
 public:
  struct Beneficiary {
    FlavorIndex flavor;           // of its first victim; victims in others are not counted
    ResourceVector victims_hold;  // what its stopping victims still hold there
    ResourceVector held;          // held for it now (see hold())
  };

  // `victim` is stopping for the pending workload at `beneficiary`.
  void add_victim(uint32_t beneficiary, const AdmittedWorkload& victim);

  // Whether the pending workload at `index` waits for victims that are stopping.
  [[nodiscard]] bool waiting(uint32_t index) const { return by_pending_.contains(index); }
  // What to hold for the beneficiary at `index` whose whole need is `need`:
  // per resource, max(0, need - what its victims hold). Records it as held.
  // REQUIRES: waiting(index).
  const ResourceVector& hold(uint32_t index, const ResourceVector& need);
  // REQUIRES: waiting(index).
  [[nodiscard]] const Beneficiary& at(uint32_t index) const { return by_pending_.at(index); }

  [[nodiscard]] const std::unordered_map<uint32_t, Beneficiary>& all() const { return by_pending_; }

 private:
  std::unordered_map<uint32_t, Beneficiary> by_pending_;  // pending index -> its victims
};

}  // namespace allot
