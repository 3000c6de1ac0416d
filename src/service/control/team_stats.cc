#include "service/control/team_stats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

#include "authz/resource_catalog.h"
#include "scheduler/fair_share.h"
#include "scheduler/quota_tree.h"
#include "service/control/caller_rights.h"
#include "service/control/hardware_stats.h"
#include "service/control/metering_state.h"

namespace allot {
namespace {

int32_t stats_root_of(const CompiledPolicy& policy, int32_t quota_node) {
  while (policy.parent(quota_node) != kNoParent) quota_node = policy.parent(quota_node);
  return quota_node;
}

// The quota tree with the usage of the admitted and running workloads now
// (the activity index's holders: no walk of the queued ones).
QuotaTree stats_quota_tree(const ServerState& state) {
  const CompiledPolicy& policy = *state.policy.compiled();
  QuotaTree tree(policy);
  for (const WorkloadId id : state.activity.holding()) {
    const LiveWorkload* found = state.workloads.find(id);
    if (found == nullptr) continue;
    const LiveWorkload& live = *found;
    if (!live.unschedulable.empty() || !holds_quota(live.phase())) continue;
    const FlavorIndex flavor = policy.flavor_by_name(live.doc.status.flavor);
    if (!flavor.valid()) continue;
    ResourceVector held;
    for (size_t i = 0; i < live.doc.status.pod_sets.size(); ++i) {
      const auto pods = static_cast<int64_t>(live.doc.status.pod_sets[i].pods.size());
      const ResourceVector& per_pod = live.doc.workload.spec.pod_sets[i].resources;
      for (Resource r : kAllResources) held[r] += per_pod[r] * pods;
    }
    tree.add_usage(live.request.team, flavor, held);
  }
  return tree;
}

// Every team's row with its fair-share figures and quota.
std::vector<TeamStatsRow> fair_share_rows(const ServerState& state) {
  const CompiledPolicy& policy = *state.policy.compiled();
  const QuotaTree tree = stats_quota_tree(state);
  std::vector<TeamStatsRow> rows;
  for (int32_t t = 0; t < policy.team_count(); ++t) {
    const CompiledTeam& team = policy.team(TeamIndex(t));
    TeamStatsRow row;
    row.team = team.name;
    const int32_t parent = policy.parent(team.quota_node);
    row.cohort = parent == kNoParent ? "" : policy.quota_node_name(parent);
    row.fair_share.weight = policy.quota_node_weight(team.quota_node);
    const TeamQuotaGpus quota = team_quota_gpus(policy, team);
    row.nominal_gpus = quota.nominal;
    row.ceiling_gpus = quota.ceiling;
    const double share = weighted_share(tree, team.quota_node);
    if (std::isfinite(share)) {
      row.fair_share.share = share;
      row.fair_share.dominant = share * row.fair_share.weight / 1000.0;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<SeriesTeam> series_teams_of(const CompiledPolicy& policy) {
  std::vector<SeriesTeam> teams;
  for (int32_t t = 0; t < policy.team_count(); ++t) {
    const CompiledTeam& team = policy.team(TeamIndex(t));
    SeriesTeam series{TeamId(team.name), "", {}};
    if (policy.parent(team.quota_node) != kNoParent) {
      series.root = policy.quota_node_name(stats_root_of(policy, team.quota_node));
    }
    for (int32_t f = 0; f < policy.flavor_count(); ++f) {
      const FlavorIndex flavor(static_cast<uint16_t>(f));
      const int64_t nominal =
          policy.limits(team.quota_node, CompiledPolicy::fr_of(flavor, Resource::kGpu)).nominal;
      if (nominal > 0) series.nominal_gpus[policy.flavor_name(flavor)] = nominal;
    }
    teams.push_back(std::move(series));
  }
  return teams;
}

// Each row's quota as it was at the end of each bucket (quota_history.h).
void add_quota_series(const std::vector<TeamQuotaInterval>& history, TeamStatsView& view) {
  const auto count = static_cast<int32_t>(view.range.span.ms() / view.range.bucket.ms());
  std::map<std::string, std::vector<TeamQuotaInterval>> by_team;
  for (const TeamQuotaInterval& q : history) by_team[q.team].push_back(q);
  for (TeamStatsRow& row : view.teams) {
    const std::vector<TeamQuotaInterval>& own = by_team[row.team];
    row.quota_series.reserve(static_cast<size_t>(count));
    for (int32_t i = 0; i < count; ++i) {
      row.quota_series.push_back(quota_at(own, row.team, view.from + view.range.bucket * (i + 1)));
    }
  }
}

}  // namespace

Result<StatsRange> parse_stats_range(const std::string& name) {
  if (name == "1h") return StatsRange{name, Duration::hours(1), Duration::minutes(1)};
  if (name == "24h") return StatsRange{name, Duration::hours(24), Duration::hours(1)};
  if (name == "7d") return StatsRange{name, Duration::hours(168), Duration::hours(6)};
  if (name == "30d") return StatsRange{name, Duration::hours(720), Duration::hours(24)};
  return invalid_argument("range must be 1h, 24h, 7d or 30d, not '" + name + "'", "range");
}

WaitPercentiles wait_percentiles(std::vector<double> waits) {
  WaitPercentiles p;
  p.admitted = static_cast<int64_t>(waits.size());
  if (waits.empty()) return p;
  std::sort(waits.begin(), waits.end());
  auto rank = [&waits](int64_t percent) {
    // The smallest wait with at least percent% of the waits at or below it.
    const auto n = static_cast<int64_t>(waits.size());
    const int64_t k = std::max<int64_t>(1, (percent * n + 99) / 100);
    return waits[static_cast<size_t>(k - 1)];
  };
  p.p50 = rank(50);
  p.p90 = rank(90);
  p.p99 = rank(99);
  return p;
}

Result<TeamStatsView> TeamStatsService::stats(const Principal& caller,
                                              const StatsRange& range) const {
  const VisibleNamespaces listing = workload_visibility(cluster_.access(), caller);
  if (!listing.everywhere && listing.namespaces.empty()) {
    return Status(ErrorCode::kPermissionDenied,
                  "User \"" + caller.subject +
                      "\" cannot read quota usage: no binding lets it list workloads anywhere");
  }
  const std::shared_ptr<const Authorizer> authorizer = cluster_.access().authorizer();
  Authorizer::Reach reports{caller.admin, {}};
  if (!caller.admin) {
    reports = authorizer->reach(authorizer->resolve(caller),
                                AccessRequest{"get", api_group_of("reports"), "reports", {}, {}});
  }
  auto reports_in = [&reports](const std::string& ns) {
    return reports.everywhere || std::find(reports.namespaces.begin(), reports.namespaces.end(),
                                           ns) != reports.namespaces.end();
  };
  TeamStatsView view{range, {}, clock_.now(), false, {}, {}};
  view.from = view.to - range.span;
  std::vector<SeriesTeam> series_teams;
  std::vector<bool> series_visible;
  {
    const CommittedRead read(cluster_);
    const ServerState& state = cluster_.view();
    if (!state.policy.compiled()) return view;
    const CompiledPolicy& policy = *state.policy.compiled();
    for (const Cluster& cluster : state.policy.policy().clusters) {
      view.fair_sharing = view.fair_sharing || cluster.scheduling.fair_sharing;
    }
    view.teams = fair_share_rows(state);
    for (int32_t t = 0; t < policy.team_count(); ++t) {
      const std::string& ns = policy.team(TeamIndex(t)).namespace_name;
      series_visible.push_back(reports_in(ns));
      if (!listing.contains(ns)) continue;
      view.teams[static_cast<size_t>(t)].wait =
          wait_percentiles(state.activity.waits(ns, view.from, view.to));
    }
    series_teams = series_teams_of(policy);
    add_quota_series(state.metering.quotas, view);
    view.missing = missing_in_range(state.metering.gaps, view.from, view.to);
  }
  if (std::find(series_visible.begin(), series_visible.end(), true) == series_visible.end()) {
    return view;
  }
  ALLOT_ASSIGN_OR_RETURN(std::vector<AllocationRecord> records,
                         cluster_.store().allocations(view.from.ms(), view.to.ms()));
  std::vector<AllocationInterval> allocations;
  allocations.reserve(records.size());
  for (AllocationRecord& record : records) {
    allocations.push_back(allocation_interval_of(std::move(record)));
  }
  const auto count = static_cast<int32_t>(range.span.ms() / range.bucket.ms());
  auto series = usage_series(allocations, series_teams, view.from, range.bucket, count);
  for (size_t t = 0; t < view.teams.size(); ++t) {
    if (series_visible[t]) view.teams[t].series = std::move(series[TeamId(view.teams[t].team)]);
  }
  return view;
}

}  // namespace allot
