#include "service/control/workload_explanation.h"

#include <cstdio>
#include <string>

#include "api/rfc3339.h"
#include "scheduler/explanation_text.h"
#include "service/control/budget_monitor.h"
#include "service/control/contract_gate.h"

namespace allot {
namespace {

// Why a budget stops the workload's admission, if one does.
std::optional<std::string> budget_stopping(const LiveWorkload& live, const ServerState& state) {
  const std::optional<BudgetStop> stop = budget_stop_of(live, state);
  if (!stop) return std::nullopt;
  const std::string& budget = stop->budget;
  std::string message = "the budget " + budget + " of " + stop->scope + " is exhausted";
  for (const BudgetReading& reading : state.budgets.readings) {
    if (reading.budget.meta.name != budget || !reading.status) continue;
    char spent[64];
    std::snprintf(spent, sizeof spent, "%.2f of %.2f ", reading.status->spent,
                  reading.budget.spec.amount);
    message += ": " + std::string(spent) + reading.budget.spec.currency +
               " spent this period; new admissions wait until " +
               format_rfc3339(reading.status->period.to) + " (running work runs on)";
  }
  return message;
}

}  // namespace

std::optional<PendingExplanationView> explain_waiting(const LiveWorkload& live,
                                                      const ServerState& state, Timestamp now) {
  if (!is_waiting(live.phase())) return std::nullopt;
  PendingExplanationView view;
  if (!live.unschedulable.empty()) {
    view.reason = "Unschedulable";
    view.message = live.unschedulable;
  } else if (std::optional<ContractVerdict> contract = contract_refusal_of(live, state, now)) {
    view.reason = std::string(contract_refusal_name(contract->reason));
    view.message = contract->message;
    if (contract->review_due)
      view.message += " (due " + format_rfc3339(*contract->review_due) + ")";
  } else if (std::optional<std::string> budget = budget_stopping(live, state)) {
    view.reason = "BudgetExhausted";
    view.message = *budget;
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
