// Budget evaluation (issue 14, item 3; the spec: model/budget.h): a team's spending over the
// budget's current period against its amount, the thresholds it has reached, whether admission must
// stop, and the forecast day it runs out at the current burn.
//
// Contract: pure; the caller gives the spending (the ledger's cost of the
// team from the period's start to now, usage_report.h) and `now` from its
// clock. Periods are UTC: monthly [the 1st 00:00, the next 1st), weekly
// [Monday 00:00, the next Monday), or a fixed [from, to). Thresholds are
// fractions of the amount in (0, 1], ascending; each is alerted once per
// period (new_alerts()).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "accounting/ledger.h"
#include "base/status.h"
#include "base/time.h"
#include "model/budget.h"

namespace allot {

// kInvalidArgument naming the field ("spec.amount", "spec.thresholds[1]", ...)
// when the spec is malformed.
Status validate_budget(const BudgetSpec& spec);

// The period of `period` that holds `now`; none when `now` is outside a fixed one.
std::optional<Period> current_period(const BudgetPeriod& period, Timestamp now);

struct BudgetStatus {
  Period period;
  double spent = 0;
  double used = 0;                    // spent / amount
  std::vector<double> reached;        // the thresholds spent has reached
  bool exhausted = false;             // spent >= amount
  bool stops_admission = false;       // exhausted and the action is stopAdmission
  std::optional<Timestamp> runs_out;  // at the current burn, within the period; none otherwise

  friend bool operator==(const BudgetStatus&, const BudgetStatus&) = default;
};

// REQUIRES: validate_budget(spec) is ok; `period` holds `now`.
BudgetStatus evaluate_budget(const BudgetSpec& spec, const Period& period, double spent,
                             Timestamp now);

// The thresholds `status` reached that are not in `alerted` (those alerted
// earlier in the same period), in ascending order.
std::vector<double> new_alerts(const BudgetStatus& status, const std::vector<double>& alerted);

}  // namespace allot
