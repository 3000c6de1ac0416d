// AdmissionOrder: which team's head workload the cycle considers next.
//
// Two policies (DESIGN.md section 3):
//  - ClassicOrder: heads that would not borrow before heads that would, then
//    higher priority, then earlier queue time, then lower id. Between the
//    two: a BestEffortFIFO team whose head would borrow but that has a
//    workload among the next 32 behind it that would not, ranked by that
//    workload (its queue is still tried in order from the head).
//  - FairShareOrder: at every level of the cohort tree, the child with the
//    lowest weighted dominant-resource share after admitting its candidate.
// The cycle calls refresh(team) whenever the team's head or usage changed.
//
// Contract: deterministic; holds references to the cycle's state.
#pragma once

#include <memory>
#include <vector>

#include "scheduler/plan.h"
#include "scheduler/quota_tree.h"
#include "scheduler/team_queues.h"

namespace allot {

class AdmissionOrder {
 public:
  virtual ~AdmissionOrder() = default;
  // The team whose head goes next, or invalid when every queue is done.
  virtual TeamIndex next() = 0;
  virtual void refresh(TeamIndex team) = 0;
};

std::unique_ptr<AdmissionOrder> make_classic_order(QuotaTree& quota, const TeamQueues& queues,
                                                   const std::vector<PendingFacts>& facts);

std::unique_ptr<AdmissionOrder> make_fair_share_order(QuotaTree& quota, const TeamQueues& queues,
                                                      const std::vector<PendingFacts>& facts);

}  // namespace allot
