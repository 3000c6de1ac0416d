// Budget (issue 14, item 3): the most a team, or a project (a governance
// Contract: the work in its namespaces), may spend per period, the
// fractions of it that raise an alert, and what happens at the limit.
// accounting/budget.h evaluates it against the metering ledger's spending.
//
// Contract: plain values. Periods are UTC: monthly (from the 1st), weekly
// (from Monday) or a fixed span [from, to).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/time.h"
#include "model/object_meta.h"

namespace allot {

enum class BudgetPeriodKind : uint8_t { kMonthly, kWeekly, kFixed };
enum class BudgetAction : uint8_t { kAlert, kStopAdmission };

struct BudgetPeriod {
  BudgetPeriodKind kind = BudgetPeriodKind::kMonthly;
  Timestamp from;  // kFixed only
  Timestamp to;    // kFixed only

  friend bool operator==(const BudgetPeriod&, const BudgetPeriod&) = default;
};

struct BudgetSpec {
  std::string team;     // exactly one of team and project is set
  std::string project;  // a Contract's name
  BudgetPeriod period;
  double amount = 0;
  std::string currency;
  std::vector<double> thresholds = {0.5, 0.8, 1.0};  // fractions of amount, ascending
  BudgetAction action = BudgetAction::kAlert;

  friend bool operator==(const BudgetSpec&, const BudgetSpec&) = default;
};

struct Budget {
  ObjectMeta meta;
  BudgetSpec spec;

  friend bool operator==(const Budget&, const Budget&) = default;
};

}  // namespace allot
