// PendingQueues: the pending workloads' team queues (priority, then original
// queue time, then id; positions 1-based within the team) and their facts
// (what depends only on the workload and the policy), built from scratch or
// kept between cycles and brought up to date from the cycle's changes.
//
// Contract: indices are into the pending vector it was built or last updated
// for. update() requires that vector kept sorted by id (as the simulator and
// allotd keep it) before and after, and `touched` to name every workload that
// entered or left it, or whose fields changed, since the last call (a
// workload may appear in it more than once, or name one that is not pending
// any more). A different CompiledPolicy object (a policy change) rebuilds it
// from scratch. After update() it equals PendingQueues(policy, pending):
// pending_queues_property_test checks that over random worlds.
#pragma once

#include <cstdint>
#include <vector>

#include "base/quantity.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/ids.h"
#include "scheduler/snapshot.h"

namespace allot {

// What the cycle and its orderings need to know about each pending workload.
struct PendingFacts {
  ResourceVector total;      // all pods at full count
  FlavorIndex first_flavor;  // first flavor of the team that it may use
  FlavorIndex pinned;        // the flavor its pod sets require, if any
  bool usable = true;        // false when pinned to a flavor outside the team's list
  // An endpoint's guaranteed replica: read here, a failed attempt answered
  // from memory (admission_memo.h) does not read the workload's second line.
  bool guaranteed = false;
  // Its id and team, read with the rest: a blocked StrictFIFO tail is
  // explained from these facts without reading each workload again.
  WorkloadId id;
  TeamIndex team;
  // What the admission orders rank a head by besides its share or tier, so
  // that ranking a head reads only its facts (not the workload).
  int32_t priority = 0;
  Timestamp queued_at;

  friend bool operator==(const PendingFacts&, const PendingFacts&) = default;
};

PendingFacts pending_facts_of(const CompiledPolicy& policy, const PendingWorkload& w);

// True when a goes before b in a team's queue.
bool queue_before(const PendingWorkload& a, const PendingWorkload& b);

class PendingQueues {
 public:
  PendingQueues() = default;
  // From scratch.
  PendingQueues(const CompiledPolicy& policy, const std::vector<PendingWorkload>& pending);

  // Brings it to `pending` (see the contract). Touches only the queues of the
  // teams whose work changed, besides one pass over compact index arrays.
  void update(const CompiledPolicy& policy, const std::vector<PendingWorkload>& pending,
              std::vector<WorkloadId> touched);

  // Whether it was built or updated for this policy and pending vector
  // (a cheap check: same size and the same first and last ids).
  [[nodiscard]] bool matches(const CompiledPolicy& policy,
                             const std::vector<PendingWorkload>& pending) const;

  [[nodiscard]] const std::vector<PendingFacts>& facts() const { return facts_; }
  [[nodiscard]] const std::vector<uint32_t>& queue(TeamIndex team) const {
    return queues_[team.value()];
  }
  [[nodiscard]] int32_t position(uint32_t pending_index) const { return position_[pending_index]; }

  friend bool operator==(const PendingQueues& a, const PendingQueues& b) {
    return a.policy_ == b.policy_ && a.facts_ == b.facts_ && a.queues_ == b.queues_ &&
           a.position_ == b.position_;
  }

 private:
  void number_positions();
  // Fills `moved_to` (old index -> new, or kLeftPending) and `added` (new
  // indices read again); false when the sizes do not add up.
  bool merge_facts(const CompiledPolicy& policy, const std::vector<PendingWorkload>& pending,
                   const std::vector<WorkloadId>& touched, std::vector<uint32_t>& moved_to,
                   std::vector<uint32_t>& added);
  void insert_newcomers(const std::vector<PendingWorkload>& pending, std::vector<uint32_t>& added);

  const CompiledPolicy* policy_ = nullptr;
  std::vector<PendingFacts> facts_;            // by pending index
  std::vector<std::vector<uint32_t>> queues_;  // per team, pending indices in queue order
  std::vector<int32_t> position_;              // by pending index
};

}  // namespace allot
