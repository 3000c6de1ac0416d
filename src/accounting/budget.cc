#include "accounting/budget.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "accounting/calendar_day.h"

namespace allot {
namespace {

// 1970-01-01 was a Thursday: day d is Monday + (d + 3) mod 7.
Timestamp week_start(Timestamp at) {
  const int64_t day = (day_start(at).ms()) / kMillisPerDay;
  const int64_t since_monday = ((day + 3) % 7 + 7) % 7;
  return Timestamp::from_millis((day - since_monday) * kMillisPerDay);
}

// The 1st of the month after the one that starts at `start`.
Timestamp next_month(Timestamp start) {
  return month_start(start + Duration::hours(int64_t{32} * 24));
}

}  // namespace

Status validate_budget(const BudgetSpec& spec) {
  if (spec.team.empty() == spec.project.empty()) {
    return invalid_argument("a Budget needs spec.team or spec.project (one of them)", "spec.team");
  }
  if (!std::isfinite(spec.amount) || spec.amount <= 0) {
    return invalid_argument("spec.amount must be a positive number", "spec.amount");
  }
  if (spec.currency.empty()) {
    return invalid_argument("spec.currency is required (the rate cards' currency)",
                            "spec.currency");
  }
  if (spec.period.kind == BudgetPeriodKind::kFixed && spec.period.from >= spec.period.to) {
    return invalid_argument("spec.period.from must be before spec.period.to", "spec.period");
  }
  for (size_t i = 0; i < spec.thresholds.size(); ++i) {
    const std::string field = "spec.thresholds[" + std::to_string(i) + "]";
    const double t = spec.thresholds[i];
    if (!(t > 0 && t <= 1)) {
      return invalid_argument(field + " must be in (0, 1], a fraction of the amount", field);
    }
    if (i > 0 && t <= spec.thresholds[i - 1]) {
      return invalid_argument(field + " must be above the threshold before it", field);
    }
  }
  return Status::ok_status();
}

std::optional<Period> current_period(const BudgetPeriod& period, Timestamp now) {
  switch (period.kind) {
    case BudgetPeriodKind::kMonthly: {
      const Timestamp start = month_start(now);
      return Period{start, next_month(start)};
    }
    case BudgetPeriodKind::kWeekly: {
      const Timestamp start = week_start(now);
      return Period{start, start + Duration::hours(int64_t{7} * 24)};
    }
    case BudgetPeriodKind::kFixed:
      if (now < period.from || now >= period.to) return std::nullopt;
      return Period{period.from, period.to};
  }
  return std::nullopt;
}

BudgetStatus evaluate_budget(const BudgetSpec& spec, const Period& period, double spent,
                             Timestamp now) {
  BudgetStatus status;
  status.period = period;
  status.spent = spent;
  status.used = spent / spec.amount;
  for (const double t : spec.thresholds) {
    if (status.used >= t) status.reached.push_back(t);
  }
  status.exhausted = spent >= spec.amount;
  status.stops_admission = status.exhausted && spec.action == BudgetAction::kStopAdmission;
  const int64_t elapsed = (now - period.from).ms();
  if (!status.exhausted && spent > 0 && elapsed > 0) {
    // At the burn so far (spent per millisecond since the period began).
    const double left_ms = (spec.amount - spent) * static_cast<double>(elapsed) / spent;
    if (left_ms < static_cast<double>((period.to - now).ms())) {
      status.runs_out = now + Duration::millis(static_cast<int64_t>(std::ceil(left_ms)));
    }
  }
  return status;
}

std::vector<double> new_alerts(const BudgetStatus& status, const std::vector<double>& alerted) {
  std::vector<double> fresh;
  for (const double t : status.reached) {
    if (std::find(alerted.begin(), alerted.end(), t) == alerted.end()) fresh.push_back(t);
  }
  return fresh;
}

}  // namespace allot
