// BudgetState: what allotd keeps in memory of its Budgets (budget_monitor.h):
// the last readings, the teams whose admission a budget stops, and the
// thresholds already alerted (stored as BudgetAlert objects, one per budget,
// period and threshold, so that a restart does not alert twice).
//
// Contract: value types, guarded by ClusterState's lock as part of ServerState.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "accounting/budget.h"
#include "model/budget.h"
#include "model/views/policy_view.h"

namespace allot {

inline constexpr std::string_view kBudgetAlertKind = "BudgetAlert";

struct BudgetReading {
  Budget budget;
  std::optional<BudgetStatus> status;  // none outside a fixed period
  std::string problem;                 // why it could not be evaluated, if so

  friend bool operator==(const BudgetReading&, const BudgetReading&) = default;
};

struct BudgetState {
  std::vector<BudgetReading> readings;  // as last evaluated, by budget name
  // "team/<team>" or "project/<contract>" -> the budget that stops its admission.
  std::map<std::string, std::string> blocked;
  std::set<std::string> alerted;  // names of the BudgetAlert objects stored
};

// "<budget>/<period start, ms, zero-padded>/<threshold>": one alert's object name.
std::string budget_alert_name(const std::string& budget, Timestamp period_from, double threshold);

// The standing of the budget `name` as last evaluated; none before.
std::optional<BudgetStandingView> budget_standing(const BudgetState& state,
                                                  const std::string& name);

}  // namespace allot
