// Budget evaluation (issue 14, item 3), pure, on hand-picked instants: the
// current period (UTC month, ISO week, fixed), thresholds reached and alerted
// once, exhaustion stopping admission only for stopAdmission, the forecast at
// the current burn, and malformed specs naming their field.
#include "accounting/budget.h"

#include <gtest/gtest.h>

#include "accounting/calendar_day.h"

namespace allot {
namespace {

constexpr int64_t kSecond = 1000;
// 2027-01-15T08:00:00Z, a Friday.
constexpr Timestamp kNow = Timestamp::from_millis(1'800'000'000'000);
constexpr Timestamp kJanuary1 = Timestamp::from_millis(1'798'761'600 * kSecond);
constexpr Timestamp kFebruary1 = Timestamp::from_millis(1'801'440'000 * kSecond);
constexpr Timestamp kMonday11 = Timestamp::from_millis(1'799'625'600 * kSecond);

BudgetSpec spec(double amount, BudgetAction action = BudgetAction::kAlert) {
  BudgetSpec s;
  s.team = "research";
  s.amount = amount;
  s.currency = "EUR";
  s.action = action;
  return s;
}

TEST(Budget, PeriodsAreTheUtcMonthTheIsoWeekOrTheFixedSpan) {
  EXPECT_EQ(month_start(kNow), kJanuary1);
  EXPECT_EQ(day_label(month_start(Timestamp::from_millis(1'709'208'000 * kSecond))),
            "2024-02-01");  // 2024-02-29T12:00Z, a leap day
  EXPECT_EQ(current_period({BudgetPeriodKind::kMonthly, {}, {}}, kNow),
            (Period{kJanuary1, kFebruary1}));
  EXPECT_EQ(current_period({BudgetPeriodKind::kWeekly, {}, {}}, kNow),
            (Period{kMonday11, kMonday11 + Duration::hours(7 * 24)}));
  // A Monday at midnight starts its own week.
  EXPECT_EQ(current_period({BudgetPeriodKind::kWeekly, {}, {}}, kMonday11)->from, kMonday11);
  const Period fixed{kJanuary1, kNow};
  EXPECT_EQ(
      current_period({BudgetPeriodKind::kFixed, fixed.from, fixed.to}, kNow - Duration::millis(1)),
      fixed);
  EXPECT_FALSE(current_period({BudgetPeriodKind::kFixed, fixed.from, fixed.to}, kNow).has_value());
  // The next period: a month later, spending starts again.
  EXPECT_EQ(current_period({BudgetPeriodKind::kMonthly, {}, {}}, kFebruary1)->from, kFebruary1);
}

TEST(Budget, ThresholdsReachedAreAlertedOnceEach) {
  const Period month{kJanuary1, kFebruary1};
  const BudgetStatus half = evaluate_budget(spec(1000), month, 500, kNow);
  EXPECT_EQ(half.reached, (std::vector<double>{0.5}));
  EXPECT_DOUBLE_EQ(half.used, 0.5);
  EXPECT_EQ(new_alerts(half, {}), (std::vector<double>{0.5}));
  const BudgetStatus more = evaluate_budget(spec(1000), month, 850, kNow);
  EXPECT_EQ(more.reached, (std::vector<double>{0.5, 0.8}));
  EXPECT_EQ(new_alerts(more, {0.5}), (std::vector<double>{0.8}));
  EXPECT_TRUE(new_alerts(more, {0.5, 0.8}).empty());
}

TEST(Budget, ExhaustionStopsAdmissionOnlyWithStopAdmission) {
  const Period month{kJanuary1, kFebruary1};
  const BudgetStatus alert = evaluate_budget(spec(1000), month, 1000, kNow);
  EXPECT_TRUE(alert.exhausted);
  EXPECT_FALSE(alert.stops_admission);
  EXPECT_EQ(alert.reached, (std::vector<double>{0.5, 0.8, 1.0}));
  const BudgetStatus stop =
      evaluate_budget(spec(1000, BudgetAction::kStopAdmission), month, 1000, kNow);
  EXPECT_TRUE(stop.stops_admission);
  EXPECT_FALSE(stop.runs_out.has_value());
  EXPECT_FALSE(evaluate_budget(spec(1000, BudgetAction::kStopAdmission), month, 999.99, kNow)
                   .stops_admission);
}

TEST(Budget, TheForecastIsTheDayItRunsOutAtTheCurrentBurn) {
  const Period month{kJanuary1, kFebruary1};
  // 14 days 8 hours in, 344 EUR spent: 1 EUR an hour; 256 EUR left = 256
  // hours, before the month ends (400 hours from now).
  const BudgetStatus status = evaluate_budget(spec(600), month, 344, kNow);
  ASSERT_TRUE(status.runs_out.has_value());
  EXPECT_EQ(*status.runs_out, kNow + Duration::hours(256));
  EXPECT_LT(*status.runs_out, kFebruary1);
  // At that burn 800 EUR lasts past the month (456 hours): no forecast within it.
  EXPECT_FALSE(evaluate_budget(spec(800), month, 344, kNow).runs_out.has_value());
  // Nothing spent: no burn, no forecast.
  EXPECT_FALSE(evaluate_budget(spec(800), month, 0, kNow).runs_out.has_value());
}

TEST(Budget, MalformedSpecsNameTheirField) {
  BudgetSpec s = spec(0);
  EXPECT_EQ(validate_budget(s).details(), "spec.amount");
  s = spec(10);
  s.currency.clear();
  EXPECT_EQ(validate_budget(s).details(), "spec.currency");
  s = spec(10);
  s.thresholds = {0.5, 1.5};
  EXPECT_EQ(validate_budget(s).details(), "spec.thresholds[1]");
  s.thresholds = {0.8, 0.5};
  EXPECT_EQ(validate_budget(s).details(), "spec.thresholds[1]");
  s = spec(10);
  s.team.clear();
  EXPECT_EQ(validate_budget(s).details(), "spec.team");
  s = spec(10);
  s.period = {BudgetPeriodKind::kFixed, kNow, kNow};
  EXPECT_EQ(validate_budget(s).details(), "spec.period");
  EXPECT_TRUE(validate_budget(spec(10)).ok());
}

}  // namespace
}  // namespace allot
