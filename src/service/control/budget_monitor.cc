#include "service/control/budget_monitor.h"

#include <utility>

#include <nlohmann/json.hpp>

#include "api/rfc3339.h"

namespace allot {
namespace {

ObjectRecord alert_object(const std::string& name, const BudgetReading& reading, double threshold,
                          Timestamp now) {
  const nlohmann::json document = {{"budget", reading.budget.meta.name},
                                   {"team", reading.budget.spec.team},
                                   {"threshold", threshold},
                                   {"spent", reading.status->spent},
                                   {"amount", reading.budget.spec.amount},
                                   {"currency", reading.budget.spec.currency},
                                   {"periodFrom", format_rfc3339(reading.status->period.from)},
                                   {"at", format_rfc3339(now)}};
  return {std::string(kBudgetAlertKind), name, document.dump()};
}

}  // namespace

std::optional<std::string> blocked_team_of(const LiveWorkload& live, const ServerState& state) {
  if (!state.budgets.blocked.contains(live.doc.status.team)) return std::nullopt;
  return live.doc.status.team;
}

BudgetReading BudgetMonitor::read(const Budget& budget, Timestamp now) const {
  BudgetReading reading{budget, std::nullopt, {}};
  const std::optional<Period> period = current_period(budget.spec.period, now);
  if (!period) return reading;
  double spent = 0;
  if (period->from < now) {
    UsageQuery query{period->from,
                     now,
                     {GroupKey::kTeam},
                     IdleMode::kSeparate,
                     std::set<TeamId>{TeamId(budget.spec.team)}};
    Result<UsageReportResult> report = reports_.report(std::move(query));
    if (!report.ok()) {
      reading.problem = "the ledger could not be read: " + report.status().message();
      return reading;
    }
    const std::string& currency = report->report.currency;
    if (!currency.empty() && currency != budget.spec.currency) {
      reading.problem = "the rate cards price in " + currency + ", the budget is in " +
                        budget.spec.currency + ": not enforced";
      return reading;
    }
    for (const UsageRow& row : report->report.rows) {
      spent += row.figures.costs(report->rates).total();
    }
  }
  reading.status = evaluate_budget(budget.spec, *period, spent, now);
  return reading;
}

std::optional<std::vector<BudgetReading>> BudgetMonitor::evaluate_if_due() {
  const Timestamp now = clock_.now();
  if (last_ && now - *last_ < every_) return std::nullopt;
  last_ = now;
  std::vector<Budget> budgets;
  {
    ReaderLock lock(cluster_.mutex());
    budgets = cluster_.view().policy.policy().budgets;
  }
  std::vector<BudgetReading> readings;
  readings.reserve(budgets.size());
  for (const Budget& budget : budgets) readings.push_back(read(budget, now));
  return readings;
}

bool BudgetMonitor::apply(const std::vector<BudgetReading>& readings, ServerState& state,
                          Timestamp now, WriteBatch& batch) {
  std::map<std::string, std::string> blocked;
  for (const BudgetReading& reading : readings) {
    // A budget deleted since it was read no longer counts.
    const auto& current = state.policy.policy().budgets;
    if (std::find(current.begin(), current.end(), reading.budget) == current.end()) continue;
    if (!reading.status) continue;
    if (reading.status->stops_admission) {
      blocked.try_emplace(reading.budget.spec.team, reading.budget.meta.name);
    }
    for (const double threshold : reading.status->reached) {
      const std::string name =
          budget_alert_name(reading.budget.meta.name, reading.status->period.from, threshold);
      if (!state.budgets.alerted.insert(name).second) continue;
      batch.put_objects.push_back(alert_object(name, reading, threshold, now));
      logger_.warn("budget threshold reached",
                   {{"budget", reading.budget.meta.name},
                    {"team", reading.budget.spec.team},
                    {"threshold", std::to_string(threshold)},
                    {"spent", std::to_string(reading.status->spent)},
                    {"amount", std::to_string(reading.budget.spec.amount)},
                    {"currency", reading.budget.spec.currency}});
    }
  }
  state.budgets.readings = readings;
  const bool changed = blocked != state.budgets.blocked;
  state.budgets.blocked = std::move(blocked);
  return changed;
}

}  // namespace allot
