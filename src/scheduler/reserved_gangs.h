// ReservedGangs: the quota every reserved gang of a cycle needs at its start
// (ReservedQuota), kept by flavor, with each gang's window beside it.
//
// Every question of ReservedQuota concerns only gangs and work of its own
// flavor: a gang of another flavor never conflicts, is never linked nor
// counted at a start, and always allows. So each question is put to the
// gangs of one flavor only, and the pairwise conflict check (the gangs
// whose windows meet a new gang's start or contain it) first reads a
// compact window per gang, reading a gang's quota only where the windows
// meet and both gangs hold.
//
// Contract: every answer equals that of the plain computation over all the
// reserved gangs in the order they were added (a vector, each question put
// to every gang: tests/scheduler/reserved_gangs_property_test.cc). Within a
// flavor the gangs keep the order they were added in (start_beside() and
// link() add quota in that order). Not thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "base/quantity.h"
#include "base/time.h"
#include "scheduler/reserved_quota.h"

namespace allot {

class ReservedGangs {
 public:
  explicit ReservedGangs(int32_t flavor_count = 0);

  [[nodiscard]] bool empty() const { return count_ == 0; }
  [[nodiscard]] size_t size() const { return count_; }
  // Linked (ReservedQuota::link()) with every gang kept, in the order added.
  void add(ReservedQuota reserved);
  // Forgets `gang` in every flavor.
  void erase(WorkloadId gang);
  // Whether `gang` is kept and holds its quota.
  [[nodiscard]] bool holds(WorkloadId gang) const;
  // ReservedQuota::allows() of every gang.
  [[nodiscard]] bool allows(WorkloadId workload, TeamIndex team, FlavorIndex flavor,
                            const ResourceVector& amount, Timestamp finish_by, bool borrows);
  // ReservedQuota::admitted() of every gang.
  void admitted(WorkloadId workload, TeamIndex team, FlavorIndex flavor,
                const ResourceVector& amount, Timestamp finish_by);
  // Where the reservation planner must look next for `reserved`, planned
  // at `planned` (its start): the latest end among the gangs that
  // reserved.conflicts_with(), when later than `planned`; else, when it
  // holds, reserved.start_beside() every gang kept; else `planned`.
  // Availability is monotone in every usage, so a gang that fits beside all
  // the gangs running at its start together fits beside each alone: then
  // only the other half of each pair's conflict is asked.
  [[nodiscard]] Timestamp later_start(ReservedQuota& reserved, Timestamp planned);
  // How many pairs later_start() judged by their one half (for tests).
  [[nodiscard]] int64_t halves_skipped() const { return halves_skipped_; }

 private:
  // What the conflict check reads before the gang's quota.
  struct Window {
    Timestamp starts_at;
    Timestamp ends_at;
    bool holds = false;
  };
  struct Flavor {
    std::vector<ReservedQuota> gangs;
    std::vector<Window> windows;  // by the same index as gangs
  };
  Flavor& flavor(FlavorIndex f);

  std::vector<Flavor> flavors_;
  size_t count_ = 0;
  int64_t halves_skipped_ = 0;
};

}  // namespace allot
