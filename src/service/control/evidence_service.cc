#include "service/control/evidence_service.h"

#include <algorithm>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "service/control/contract_state.h"
#include "service/control/exception_state.h"
#include "service/control/policy_objects.h"

namespace allot {
namespace {

bool evidence_contains(const std::vector<std::string>& list, const std::string& value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

// The applied documents of `kind` that `keep` selects, as views.
template <typename Keep>
std::vector<PolicyObjectView> evidence_documents(const PolicyState& policy, const std::string& kind,
                                                 Keep keep) {
  std::vector<PolicyObjectView> views;
  for (const auto& [key, document] : policy.documents()) {
    if (key.first != kind) continue;
    PolicyObjectView view = object_view(key, document);
    if (keep(view, document)) views.push_back(std::move(view));
  }
  return views;
}

}  // namespace

Result<ProjectEvidence> EvidenceService::collect(const Principal& caller,
                                                 const std::string& project,
                                                 std::optional<Timestamp> from,
                                                 std::optional<Timestamp> to) const {
  ProjectEvidence evidence;
  evidence.project = project;
  evidence.generated_at = clock_.now();
  evidence.to = std::min(to.value_or(evidence.generated_at), evidence.generated_at);
  std::optional<Timestamp> first_created;
  std::set<TeamId> team_ids;
  std::vector<Contract> contracts;  // authorised after the read, holding no lock
  {
    const CommittedRead read(cluster_);
    const ServerState& state = cluster_.view();
    const Policy& policy = state.policy.policy();
    for (const Contract& contract : policy.contracts) {
      if (contract.spec.project != project) continue;
      contracts.push_back(contract);
      const DocumentKey key{"Contract", contract.meta.name};
      PolicyObjectView view = object_view(key, state.policy.documents().at(key));
      view.contract = contract_standing(policy, state.contracts, contract.meta.name);
      for (const ContractTransition& step : view.contract->status.history) {
        first_created = std::min(first_created.value_or(step.at), step.at);
      }
      evidence.contracts.push_back(std::move(view));
      for (const std::string& ns : contract.spec.namespaces) {
        if (evidence_contains(evidence.namespaces, ns)) continue;
        evidence.namespaces.push_back(ns);
        if (const Team* team = policy.find_team_by_namespace(ns)) {
          evidence.teams.push_back(team->meta.name);
          team_ids.insert(TeamId(team->meta.name));
        }
      }
    }
    if (evidence.contracts.empty()) {
      return not_found("no contract names project '" + project + "'", "project");
    }
    evidence.from = from.value_or(first_created.value_or(evidence.to));
    if (evidence.from >= evidence.to) {
      return invalid_argument(
          "the evidence's period is empty: `from` must be before `to` and before now", "from");
    }
    evidence.exceptions = evidence_documents(
        state.policy, "PolicyException", [&](const PolicyObjectView&, const nlohmann::json& doc) {
          if (!doc.contains("spec") || !doc.at("spec").is_object()) return false;
          const nlohmann::json& spec = doc.at("spec");
          return spec.contains("team") && spec.at("team").is_string() &&
                 evidence_contains(evidence.teams, spec.at("team").get<std::string>());
        });
    for (PolicyObjectView& view : evidence.exceptions) {
      view.exception =
          exception_standing_at(state.exception_statuses, policy, view.name, evidence.generated_at);
    }
    evidence.role_bindings = evidence_documents(
        state.policy, "RoleBinding", [&](const PolicyObjectView& view, const nlohmann::json&) {
          return evidence_contains(evidence.namespaces, view.namespace_name);
        });
    evidence.cluster_role_bindings =
        evidence_documents(state.policy, "ClusterRoleBinding",
                           [](const PolicyObjectView&, const nlohmann::json&) { return true; });
  }
  for (const Contract& contract : contracts) {
    const Status allowed =
        cluster_.access().authorize(caller, "get", "contracts/evidence", "", contract.meta.name);
    if (!allowed.ok() && !is_contract_owner(caller, contract.spec)) return allowed;
  }
  if (!team_ids.empty()) {
    ALLOT_ASSIGN_OR_RETURN(UsageReportResult usage,
                           reports_.report(UsageQuery{evidence.from,
                                                      evidence.to,
                                                      {GroupKey::kTeam},
                                                      IdleMode::kSeparate,
                                                      std::move(team_ids)}));
    evidence.usage = std::move(usage);
  }
  return evidence;
}

}  // namespace allot
