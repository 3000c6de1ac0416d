#include "scheduler/blocked_tails.h"

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace allot {

void expand_blocked_tails(Plan& plan, const PendingQueues& queues) {
  if (plan.blocked_tails.empty()) return;
  std::vector<PendingExplanation> out;
  size_t next = 0;  // the first explanation of the plan not copied yet
  for (const BlockedTail& tail : plan.blocked_tails) {
    const auto from = plan.explanations.begin();
    out.insert(out.end(), from + static_cast<std::ptrdiff_t>(next),
               from + static_cast<std::ptrdiff_t>(tail.explanation_index));
    next = tail.explanation_index;
    const std::vector<uint32_t>& queue = queues.queue(tail.team);
    for (size_t k = static_cast<size_t>(tail.head_position); k < queue.size(); ++k) {
      const PendingFacts& facts = queues.facts()[queue[k]];
      PendingExplanation e;
      e.workload = facts.id;
      e.reason = PendingReason::kBlockedByStrictFifo;
      e.flavor = facts.first_flavor;
      e.queue_position = queues.position(queue[k]);
      out.push_back(e);
    }
  }
  out.insert(out.end(), plan.explanations.begin() + static_cast<std::ptrdiff_t>(next),
             plan.explanations.end());
  plan.explanations = std::move(out);
  plan.blocked_tails.clear();
}

}  // namespace allot
