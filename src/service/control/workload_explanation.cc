#include "service/control/workload_explanation.h"

#include <string>

#include "scheduler/explanation_text.h"

namespace allot {

std::optional<PendingExplanationView> explain_waiting(const LiveWorkload& live,
                                                      const ServerState& state, Timestamp now) {
  if (!is_waiting(live.phase())) return std::nullopt;
  PendingExplanationView view;
  if (!live.unschedulable.empty()) {
    view.reason = "Unschedulable";
    view.message = live.unschedulable;
  } else if (live.explanation && state.policy.compiled()) {
    const PendingExplanation& e = *live.explanation;
    view.reason = std::string(pending_reason_name(e.reason));
    view.preemption = std::string(preemption_verdict_name(e.preemption));
    view.message = describe_pending(*state.policy.compiled(), e, now);
    view.queue_position = e.queue_position;
    if (e.estimated_start != Timestamp::infinite_future()) view.estimated_start = e.estimated_start;
  } else {
    view.message = "not yet considered by a scheduling cycle";
  }
  return view;
}

WorkloadView workload_view(const LiveWorkload& live, const ServerState& state, Timestamp now) {
  return {live.doc, explain_waiting(live, state, now)};
}

}  // namespace allot
