#include "service/control/metrics_service.h"

#include <algorithm>
#include <utility>

#include "accounting/calendar_day.h"
#include "authz/resource_catalog.h"
#include "service/control/budget_visibility.h"
#include "service/control/node_service.h"
#include "service/control/quota_usage.h"

namespace allot {
namespace {

bool sees(const std::optional<std::set<TeamId>>& visible, const std::string& team) {
  return !visible || visible->contains(TeamId(team));
}

std::vector<NodeSample> node_samples(const ServerState& state) {
  std::vector<NodeSample> nodes;
  const NodeAllocations allocations = node_allocations(state);
  const size_t count = state.policy.compiled()->nodes().size();
  nodes.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    NodeView view = node_view(state, allocations, i);
    nodes.push_back({std::move(view.name), std::move(view.flavor), std::move(view.pool),
                     view.healthy, view.cordoned, view.capacity, view.allocated});
  }
  return nodes;
}

// The recorded activity of the visible teams only.
TeamActivity visible_activity(TeamActivity all, const std::optional<std::set<TeamId>>& visible) {
  if (!visible) return all;
  std::erase_if(all.admission_wait, [&](const auto& entry) { return !sees(visible, entry.first); });
  std::erase_if(all.preemptions,
                [&](const auto& entry) { return !sees(visible, entry.first.first); });
  return all;
}

// The budgets' standing as last evaluated (budget_monitor.h), of the budgets
// the caller reads (budget_visibility.h, the API's rule) and that the policy
// still holds: a deleted budget's series are gone at once, not at the next
// evaluation.
std::vector<BudgetSample> budget_samples(const ServerState& state, const VisibleNamespaces& reach,
                                         const Principal& caller) {
  std::vector<BudgetSample> samples;
  const Policy& policy = state.policy.policy();
  for (const BudgetReading& reading : state.budgets.readings) {
    const std::string& name = reading.budget.meta.name;
    const bool held = std::any_of(policy.budgets.begin(), policy.budgets.end(),
                                  [&](const Budget& b) { return b.meta.name == name; });
    if (!reading.status || !held || !budget_readable(policy, reach, caller, name)) continue;
    const BudgetSpec& spec = reading.budget.spec;
    samples.push_back(
        {name, spec.team, spec.project, spec.currency, spec.amount, reading.status->spent});
  }
  return samples;
}

}  // namespace

Result<std::optional<std::set<TeamId>>> MetricsService::visible_teams(
    const Principal& caller) const {
  if (caller.admin) return std::optional<std::set<TeamId>>();
  const std::shared_ptr<const Authorizer> authorizer = cluster_.access().authorizer();
  const Authorizer::Reach reach =
      authorizer->reach(authorizer->resolve(caller),
                        AccessRequest{"get", api_group_of("metrics"), "metrics", {}, {}});
  if (reach.everywhere) return std::optional<std::set<TeamId>>();
  std::set<TeamId> teams;
  {
    ReaderLock lock(cluster_.mutex());
    const Policy& policy = cluster_.view().policy.policy();
    for (const std::string& ns : reach.namespaces) {
      if (const Team* team = policy.find_team_by_namespace(ns)) {
        teams.insert(TeamId(team->meta.name));
      }
    }
  }
  return std::optional<std::set<TeamId>>(std::move(teams));
}

Result<std::vector<TeamCost>> MetricsService::month_costs(
    const std::optional<std::set<TeamId>>& visible) const {
  const Timestamp now = clock_.now();
  std::vector<TeamCost> costs;
  const Timestamp from = month_start(now);
  if (from >= now) return costs;  // the month starts this millisecond
  UsageQuery query{from, now, {GroupKey::kTeam, GroupKey::kFlavor}, IdleMode::kSeparate, visible};
  ALLOT_ASSIGN_OR_RETURN(UsageReportResult result, reports_.report(std::move(query)));
  costs.reserve(result.report.rows.size());
  for (const UsageRow& row : result.report.rows) {
    costs.push_back({row.keys.at(0), row.keys.at(1), result.report.currency,
                     row.figures.costs(result.rates).total()});
  }
  return costs;
}

Result<MetricsSnapshot> MetricsService::snapshot(const Principal& caller) const {
  ALLOT_ASSIGN_OR_RETURN(const std::optional<std::set<TeamId>> visible, visible_teams(caller));
  const VisibleNamespaces budget_reach = budget_list_reach(cluster_.access(), caller);
  MetricsSnapshot snapshot;
  bool reads_budgets = false;  // a caller who reads budgets sees their series
  {
    const CommittedRead read(cluster_);
    const ServerState& state = cluster_.view();
    reads_budgets = budget_reach.everywhere || !budget_reach.namespaces.empty() ||
                    owns_any_budget_contract(state.policy.policy(), caller);
    if (state.policy.compiled()) {
      snapshot.quotas = quota_usage(state);
      std::erase_if(snapshot.quotas,
                    [&](const QuotaUsageRow& row) { return !sees(visible, row.team); });
      std::vector<NodeSample> nodes = node_samples(state);
      for (const NodeSample& node : nodes) snapshot.node_flavors[node.name] = node.flavor;
      if (!visible) snapshot.cluster = ClusterMetrics{std::move(nodes), {}};
      snapshot.budgets = budget_samples(state, budget_reach, caller);
    } else if (!visible) {
      snapshot.cluster = ClusterMetrics{};
    }
  }
  if (visible && visible->empty() && !reads_budgets) {
    return Status(ErrorCode::kPermissionDenied,
                  "\"" + caller.subject +
                      "\" cannot get metrics: no binding grants it in any team's namespace, and "
                      "it reads no budget");
  }
  snapshot.teams = visible_activity(activity_.teams(), visible);
  if (snapshot.cluster) snapshot.cluster->activity = activity_.cluster();
  ALLOT_ASSIGN_OR_RETURN(snapshot.costs, month_costs(visible));
  if (executor_ != nullptr) {
    snapshot.gpus = executor_->gpu_usage();
    std::erase_if(snapshot.gpus, [&](const GpuUsageSample& gpu) {
      return gpu.held() ? !sees(visible, gpu.team) : visible.has_value();
    });
  }
  return snapshot;
}

}  // namespace allot
