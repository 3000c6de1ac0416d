#include "service/control/budget_monitor.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/rfc3339.h"

namespace allot {
namespace {

ObjectRecord alert_object(const std::string& name, const BudgetReading& reading, double threshold,
                          Timestamp now) {
  const nlohmann::json document = {{"budget", reading.budget.meta.name},
                                   {"team", reading.budget.spec.team},
                                   {"project", reading.budget.spec.project},
                                   {"threshold", threshold},
                                   {"spent", reading.status->spent},
                                   {"amount", reading.budget.spec.amount},
                                   {"currency", reading.budget.spec.currency},
                                   {"periodFrom", format_rfc3339(reading.status->period.from)},
                                   {"at", format_rfc3339(now)}};
  return {std::string(kBudgetAlertKind), name, document.dump()};
}

}  // namespace

std::optional<BudgetStop> budget_stop_of(const LiveWorkload& live, const ServerState& state) {
  const std::map<std::string, std::string>& blocked = state.budgets.blocked;
  if (blocked.empty()) return std::nullopt;
  const std::string& team = live.doc.status.team;
  if (const auto it = blocked.find("team/" + team); it != blocked.end()) {
    return BudgetStop{"team " + team, it->second};
  }
  const std::string& ns = live.doc.workload.meta.namespace_name;
  for (const Contract& contract : state.policy.policy().contracts) {
    const auto it = blocked.find("project/" + contract.meta.name);
    if (it == blocked.end()) continue;
    const std::vector<std::string>& namespaces = contract.spec.namespaces;
    if (std::find(namespaces.begin(), namespaces.end(), ns) != namespaces.end()) {
      return BudgetStop{"project " + contract.meta.name, it->second};
    }
  }
  return std::nullopt;
}

namespace {

// What the budget's spending is: its team's or its project's.
UsageQuery budget_spending_query(const BudgetSpec& spec, const Period& period, Timestamp now) {
  if (!spec.project.empty()) {
    return {period.from, now, {GroupKey::kProject}, IdleMode::kSeparate, std::nullopt};
  }
  return {period.from,
          now,
          {GroupKey::kTeam},
          IdleMode::kSeparate,
          std::set<TeamId>{TeamId(spec.team)}};
}

}  // namespace

BudgetReading BudgetMonitor::read(const Budget& budget, Timestamp now) const {
  BudgetReading reading{budget, std::nullopt, {}};
  const std::optional<Period> period = current_period(budget.spec.period, now);
  if (!period) return reading;
  double spent = 0;
  if (period->from < now) {
    Result<UsageReportResult> report =
        reports_.report(budget_spending_query(budget.spec, *period, now));
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
      if (!budget.spec.project.empty() && row.keys.at(0) != budget.spec.project) continue;
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
      const BudgetSpec& spec = reading.budget.spec;
      blocked.try_emplace(spec.project.empty() ? "team/" + spec.team : "project/" + spec.project,
                          reading.budget.meta.name);
    }
    for (const double threshold : reading.status->reached) {
      const std::string name =
          budget_alert_name(reading.budget.meta.name, reading.status->period.from, threshold);
      if (!state.budgets.alerted.insert(name).second) continue;
      batch.put_objects.push_back(alert_object(name, reading, threshold, now));
      logger_.warn("budget threshold reached",
                   {{"budget", reading.budget.meta.name},
                    {"team", reading.budget.spec.team},
                    {"project", reading.budget.spec.project},
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
