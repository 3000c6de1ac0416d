// SettledQueues: which new submits cannot change what the next scheduling
// cycle plans, so that they need not wake the admission loop
// (admission_loop.h). While submits flow into a blocked queue the loop then
// works for what changed (an exit, a cancel, a node, a submit that may start
// or preempt), not a share of the wall clock.
//
// Contract:
// - settle() is called with every plan the loop applies, and with none when
//   a cycle found nothing to plan, the state held exclusively. When the plan
//   changed nothing (no eviction, preemption, admission, reservation or
//   handover, new, kept or withdrawn), each team whose last pending workload
//   in queue order is a single pod with no preemptor, explained as blocked
//   (by quota, nodes, capacity, its flavor or StrictFIFO) with no preemption
//   possible (not needed, not allowed, no candidates, insufficient, refused
//   by fair share), has that workload as its settled tail. Otherwise no team
//   has one.
// - joins(w), for a new submit w (the state held exclusively), is true when
//   w asks exactly what its team's settled tail asks (pod set, priority and
//   its class, maxRuntime; no endpoint replica, no preemptor) and queues
//   after the team's head (so StrictFIFO still holds it behind the head). A
//   cycle planned at any time before the next settle() plans for w what it
//   planned for the tail, on the same cycle state (an idle plan changes
//   none, so the order of the attempts does not matter): not admitted, no
//   preemption, no reservation. Any change that can let the tail start
//   wakes the loop itself, and the cycle it runs plans w too: w waits for
//   the next cycle that runs for another reason, the policy's cycle period
//   at the latest, and is explained by it ("not yet considered by a
//   scheduling cycle" until then). w queues after every workload the plan
//   explained but those submitted at the same time (their creation and
//   insertion overlapping w's, as concurrent submits' do): their queue
//   positions and estimated starts, which count the work ahead in the team,
//   may then be short by such submits until that cycle.
// - settle(plan, snapshot, seen) judges again, against the new tails, the
//   submits that joined after the snapshot the plan was made from (those
//   after the first `seen`, joined() read with the snapshot): they were
//   judged against older tails and are not in the plan. It returns true when
//   one of them does not join: the loop must then run a cycle for it.
// Pure: no I/O, no clock, no lock of its own (guarded by the state's).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "scheduler/plan.h"
#include "scheduler/snapshot.h"

namespace allot {

class SettledQueues {
 public:
  // How many submits joined since the last settle().
  [[nodiscard]] size_t joined() const { return joined_.size(); }

  bool joins(const PendingWorkload& w);

  // `plan`: null when the cycle found nothing to plan (or had no policy).
  bool settle(const Plan* plan, const Snapshot& snapshot, size_t seen);

 private:
  void find_tails(const Plan& plan, const Snapshot& snapshot);

  struct Settled {
    PendingWorkload head;  // first in the team's queue
    PendingWorkload tail;  // last
  };
  std::vector<std::optional<Settled>> tails_;  // by team index
  std::vector<PendingWorkload> joined_;        // since the last settle(), in order
};

}  // namespace allot
