#include "service/control/report_service.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "authz/resource_catalog.h"
#include "service/control/metering_state.h"

namespace allot {
namespace {

std::vector<NominalQuota> nominal_quotas(const Policy& policy) {
  std::vector<NominalQuota> quotas;
  for (const Team& team : policy.teams) {
    for (const FlavorQuota& quota : team.quota) {
      ResourceVector nominal;
      for (Resource r : kAllResources) nominal[r] = quota.of(r).nominal;
      quotas.push_back({TeamId(team.meta.name), quota.flavor, nominal});
    }
  }
  return quotas;
}

// Each contract's namespaces -> the contract: the project dimension. A
// namespace two contracts name goes to the first by name.
std::map<std::string, std::string> contract_projects(const Policy& policy) {
  std::map<std::string, std::string> projects;
  for (const Contract& contract : policy.contracts) {
    for (const std::string& ns : contract.spec.namespaces) {
      auto [it, added] = projects.emplace(ns, contract.meta.name);
      if (!added && contract.meta.name < it->second) it->second = contract.meta.name;
    }
  }
  return projects;
}

}  // namespace

Result<std::optional<std::set<TeamId>>> ReportService::visible_teams(
    const Principal& caller) const {
  if (caller.admin) return std::optional<std::set<TeamId>>();
  const std::shared_ptr<const Authorizer> authorizer = cluster_.access().authorizer();
  const Authorizer::Reach reach =
      authorizer->reach(authorizer->resolve(caller),
                        AccessRequest{"get", api_group_of("reports"), "reports", {}, {}});
  if (reach.everywhere) return std::optional<std::set<TeamId>>();
  std::set<TeamId> teams;
  {
    ReaderLock lock(cluster_.mutex());
    const Policy& policy = cluster_.view().policy.policy();
    for (const std::string& ns : reach.namespaces) {
      if (const Team* team = policy.find_team_by_namespace(ns))
        teams.insert(TeamId(team->meta.name));
    }
  }
  if (teams.empty()) {
    return Status(ErrorCode::kPermissionDenied,
                  "\"" + caller.subject +
                      "\" cannot get reports: no binding grants it in any "
                      "team's namespace");
  }
  return std::optional<std::set<TeamId>>(std::move(teams));
}

Result<UsageReportResult> ReportService::usage(const Principal& caller,
                                               const UsageReportRequest& request) const {
  ALLOT_ASSIGN_OR_RETURN(std::optional<std::set<TeamId>> visible, visible_teams(caller));
  return report(UsageQuery{request.from, request.to, request.by, request.idle, std::move(visible)});
}

Result<UsageReportResult> ReportService::report(UsageQuery query) const {
  query.to = std::min(query.to, clock_.now());
  if (query.from >= query.to) {
    return invalid_argument(
        "the report's period is empty: `from` must be before `to` and before now");
  }
  UsageLedger ledger;
  std::vector<RateCardVersion> versions;
  {
    ReaderLock lock(cluster_.mutex());
    const ServerState& state = cluster_.view();
    versions = state.metering.rate_cards;
    ledger.capacity = state.metering.capacity;
    ledger.missing = state.metering.gaps;
    ledger.adjustments = state.metering.adjustments;
    ledger.nominal = nominal_quotas(state.policy.policy());
    ledger.projects = contract_projects(state.policy.policy());
  }
  Result<RateCard> rates = RateCard::create(std::move(versions));
  if (!rates.ok()) {
    return Status(ErrorCode::kInternal,
                  "the stored rate cards are inconsistent: " + rates.status().message());
  }
  ledger.rates = *rates;
  ALLOT_ASSIGN_OR_RETURN(std::vector<AllocationRecord> records,
                         cluster_.store().allocations(query.from.ms(), query.to.ms()));
  ledger.allocations.reserve(records.size());
  for (AllocationRecord& record : records)
    ledger.allocations.push_back(allocation_interval_of(std::move(record)));
  ALLOT_ASSIGN_OR_RETURN(std::vector<GpuUtilizationRecord> measured,
                         cluster_.store().gpu_utilization(query.from.ms(), query.to.ms()));
  ledger.utilization.reserve(measured.size());
  for (GpuUtilizationRecord& u : measured) {
    ledger.utilization.push_back({u.workload_id, std::move(u.gpu),
                                  Timestamp::from_millis(u.start_ms),
                                  Timestamp::from_millis(u.end_ms), u.utilization_ppm});
  }
  ALLOT_ASSIGN_OR_RETURN(UsageReport report, build_usage_report(ledger, query));
  return UsageReportResult{std::move(report), std::move(ledger.rates)};
}

std::vector<TeamId> ReportService::teams_of_policy(
    const std::optional<std::set<TeamId>>& visible) const {
  std::vector<TeamId> teams;
  ReaderLock lock(cluster_.mutex());
  for (const Team& team : cluster_.view().policy.policy().teams) {
    TeamId id(team.meta.name);
    if (!visible || visible->contains(id)) teams.push_back(std::move(id));
  }
  std::sort(teams.begin(), teams.end());
  return teams;
}

Result<BackendUsageComparison> ReportService::backend_usage(const Principal& caller, Timestamp from,
                                                            Timestamp to) const {
  ALLOT_ASSIGN_OR_RETURN(std::optional<std::set<TeamId>> visible, visible_teams(caller));
  ALLOT_ASSIGN_OR_RETURN(const HourWindow window, whole_hours_around(from, to));
  if (window.from >= clock_.now()) {
    return invalid_argument("the period starts in the future: nothing is counted yet");
  }
  ALLOT_ASSIGN_OR_RETURN(BackendUsage backend, executor_.account_usage(window.from, window.to));
  const std::vector<TeamId> teams = teams_of_policy(visible);
  ALLOT_ASSIGN_OR_RETURN(
      UsageReportResult metered,
      report(UsageQuery{window.from, window.to, {GroupKey::kTeam}, IdleMode::kSeparate, visible}));
  return compare_backend_usage(metered.report, backend, teams);
}

}  // namespace allot
