#include "service/control/budget_state.h"

#include <cstdio>

namespace allot {

std::string budget_alert_name(const std::string& budget, Timestamp period_from, double threshold) {
  char from[24];
  std::snprintf(from, sizeof from, "%015lld", static_cast<long long>(period_from.ms()));
  char fraction[32];
  std::snprintf(fraction, sizeof fraction, "%g", threshold);
  return budget + "/" + from + "/" + fraction;
}

std::optional<BudgetStandingView> budget_standing(const BudgetState& state,
                                                  const std::string& name) {
  for (const BudgetReading& reading : state.readings) {
    if (reading.budget.meta.name != name) continue;
    BudgetStandingView view;
    view.problem = reading.problem;
    if (const std::optional<BudgetStatus>& status = reading.status) {
      view.from = status->period.from;
      view.to = status->period.to;
      view.spent = status->spent;
      view.used = status->used;
      view.reached = status->reached;
      view.exhausted = status->exhausted;
      view.stops_admission = status->stops_admission;
      view.runs_out = status->runs_out;
    }
    return view;
  }
  return std::nullopt;
}

}  // namespace allot
