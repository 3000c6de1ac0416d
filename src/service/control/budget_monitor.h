// BudgetMonitor: the teams' and projects' Budgets (issue 14, item 3)
// evaluated against the metering ledger on the loop's clock: spending since
// the start of each budget's current period (ReportService; a project's is
// the work in its Contract's namespaces, by=project), its thresholds alerted
// once each per period (a BudgetAlert object in the store and a warning in
// the log), and the teams and projects whose stopAdmission budget is
// exhausted, whose new admissions then wait with the reason
// BudgetExhausted (running work runs
// on; the next period, a larger amount or the budget's deletion lets them
// in again).
//
// Contract: the admission loop calls evaluate_if_due() with no lock held (it
// reads the ledger) at most once every `every` of its clock, then apply()
// under the writer lock, which records the standing in ServerState::budgets
// and appends new alerts to the batch. The evaluation itself is pure
// (accounting/budget.h); the standing shows in the Budget objects' status
// (GET /api/v1/budgets, `allot get budgets`). Not thread-safe:
// evaluate_if_due() and apply() run on the loop's thread only.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "accounting/budget.h"
#include "base/clock.h"
#include "base/logger.h"
#include "service/control/budget_state.h"
#include "service/control/cluster_state.h"
#include "service/control/report_service.h"

namespace allot {

inline constexpr Duration kBudgetEvaluationEvery = Duration::seconds(10);

// A budget that stops the admission of `live`: its team's, or its project's
// (the Contract whose namespaces hold it).
struct BudgetStop {
  std::string scope;   // "team research", "project vision"
  std::string budget;  // the Budget's name
};
std::optional<BudgetStop> budget_stop_of(const LiveWorkload& live, const ServerState& state);

class BudgetMonitor {
 public:
  BudgetMonitor(ClusterState& cluster, const ReportService& reports, const Clock& clock,
                Logger& logger, Duration every = kBudgetEvaluationEvery)
      : cluster_(cluster), reports_(reports), clock_(clock), logger_(logger), every_(every) {}

  // Every budget's reading when an evaluation is due; none otherwise.
  std::optional<std::vector<BudgetReading>> evaluate_if_due();
  // Records the readings; true when the set of blocked teams changed (a
  // cycle is then due). REQUIRES: the state held exclusively.
  bool apply(const std::vector<BudgetReading>& readings, ServerState& state, Timestamp now,
             WriteBatch& batch);

 private:
  [[nodiscard]] BudgetReading read(const Budget& budget, Timestamp now) const;

  ClusterState& cluster_;
  const ReportService& reports_;
  const Clock& clock_;
  Logger& logger_;
  Duration every_;
  std::optional<Timestamp> last_;  // the loop's thread only
};

}  // namespace allot
