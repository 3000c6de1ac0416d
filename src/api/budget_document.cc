#include "api/budget_document.h"

#include <cmath>
#include <string>
#include <utility>

#include "api/rfc3339.h"

namespace allot {
namespace {

constexpr EnumName<BudgetPeriodKind> kPeriodNames[] = {
    {"monthly", BudgetPeriodKind::kMonthly},
    {"weekly", BudgetPeriodKind::kWeekly},
};

constexpr EnumName<BudgetAction> kActionNames[] = {
    {"alert", BudgetAction::kAlert},
    {"stopAdmission", BudgetAction::kStopAdmission},
};

Result<Timestamp> decode_time(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(const std::string text, field.as_string());
  Result<Timestamp> at = parse_rfc3339(text);
  if (!at.ok()) return field.error(at.status().message());
  return at;
}

// monthly, weekly, or {from, to}.
Result<BudgetPeriod> decode_period(const Field& field) {
  BudgetPeriod period;
  if (!field.is_map()) {
    ALLOT_ASSIGN_OR_RETURN(period.kind, field.as_enum<BudgetPeriodKind>(kPeriodNames));
    return period;
  }
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  period.kind = BudgetPeriodKind::kFixed;
  ALLOT_RETURN_IF_ERROR(map.read_required("from", period.from, decode_time));
  ALLOT_RETURN_IF_ERROR(map.read_required("to", period.to, decode_time));
  ALLOT_RETURN_IF_ERROR(map.finish());
  if (period.from >= period.to) return field.error("from must be before to");
  return period;
}

Result<std::vector<double>> decode_thresholds(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(const std::vector<Field> items, field.elements());
  std::vector<double> thresholds;
  for (const Field& item : items) {
    ALLOT_ASSIGN_OR_RETURN(const double t, item.as_number(0));
    if (!(t > 0 && t <= 1)) {
      return item.error("a threshold is a fraction of the amount, in (0, 1]");
    }
    if (!thresholds.empty() && t <= thresholds.back()) {
      return item.error("thresholds must be ascending");
    }
    thresholds.push_back(t);
  }
  return thresholds;
}

}  // namespace

Result<Budget> decode_budget(ObjectMeta meta, const Field& spec) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(spec));
  Budget budget;
  budget.meta = std::move(meta);
  BudgetSpec& s = budget.spec;
  const std::optional<Field> team = map.get("team");
  const std::optional<Field> project = map.get("project");
  if (team && project) return project->error("a Budget names a team or a project, not both");
  if (!team && !project) return map.require("team").status();  // names the missing field
  if (team) {
    ALLOT_ASSIGN_OR_RETURN(s.team, team->as_name());
  } else {
    ALLOT_ASSIGN_OR_RETURN(s.project, project->as_name());
  }
  ALLOT_RETURN_IF_ERROR(map.read("period", s.period, decode_period));
  ALLOT_ASSIGN_OR_RETURN(const Field amount, map.require("amount"));
  ALLOT_ASSIGN_OR_RETURN(s.amount, amount.as_number(0));
  if (!(s.amount > 0) || !std::isfinite(s.amount)) {
    return amount.error("amount must be a positive number");
  }
  ALLOT_ASSIGN_OR_RETURN(const Field currency, map.require("currency"));
  ALLOT_ASSIGN_OR_RETURN(s.currency, currency.as_string());
  if (s.currency.empty()) return currency.error("currency must not be empty");
  ALLOT_RETURN_IF_ERROR(map.read("thresholds", s.thresholds, decode_thresholds));
  ALLOT_RETURN_IF_ERROR(map.read(
      "action", s.action, [](const Field& f) { return f.as_enum<BudgetAction>(kActionNames); }));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return budget;
}

}  // namespace allot
