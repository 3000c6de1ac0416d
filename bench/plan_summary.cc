#include "bench/plan_summary.h"

#include "scheduler/explanation_text.h"

namespace allot::bench {

PlanSummary summarize(const Plan& plan) {
  PlanSummary summary;
  summary.admissions = static_cast<int64_t>(plan.admissions.size());
  summary.preemptions = static_cast<int64_t>(plan.preemptions.size());
  summary.reservations = static_cast<int64_t>(plan.reservations.size());
  for (const PendingExplanation& e : plan.explanations) {
    ++summary.pending_reasons[std::string(pending_reason_name(e.reason))];
    ++summary.preemption_verdicts[std::string(preemption_verdict_name(e.preemption))];
  }
  return summary;
}

}  // namespace allot::bench
