#include "model/governance_validation.h"

#include <algorithm>
#include <set>
#include <string>

#include "model/policy.h"

namespace allot {
namespace {

Status check_organization(const Policy& policy) {
  if (policy.organizations.size() > 1) {
    return invalid_argument("there is one Organization per installation; '" +
                                policy.organizations[0].meta.name + "' exists already",
                            "Organization/" + policy.organizations[1].meta.name);
  }
  const Organization* org = policy.organization();
  if (org == nullptr) return {};
  const std::string where = "Organization/" + org->meta.name + ".spec.dataClassifications";
  if (org->data_classifications.empty()) {
    return invalid_argument("an Organization lists at least one data classification", where);
  }
  std::set<std::string> seen;
  for (size_t i = 0; i < org->data_classifications.size(); ++i) {
    const std::string& level = org->data_classifications[i];
    const std::string field = where + "[" + std::to_string(i) + "]";
    if (level.empty()) return invalid_argument("a data classification needs a name", field);
    if (!seen.insert(level).second) {
      return invalid_argument("data classification '" + level + "' is listed twice", field);
    }
  }
  for (const Cluster& cluster : policy.clusters) {
    const std::string& level = cluster.max_data_classification;
    if (level.empty() || org->rank(level)) continue;
    return invalid_argument(
        "'" + level + "' is no data classification of Organization '" + org->meta.name + "'",
        "Cluster/" + cluster.meta.name + ".spec.maxDataClassification");
  }
  return {};
}

// Each of `stated` that is given must equal the cluster's `actual`.
Status check_agrees(const std::string& stated, const std::string& actual, const std::string& field,
                    const std::string& cluster) {
  if (stated.empty() || stated == actual) return {};
  return invalid_argument(
      "'" + stated + "' disagrees with Cluster '" + cluster + "', which says '" + actual + "'",
      field);
}

std::string backend_name(BackendKind backend) {
  switch (backend) {
    case BackendKind::kLocal: return "local";
    case BackendKind::kSlurm: return "slurm";
    case BackendKind::kKubernetes: return "kubernetes";
  }
  return "";
}

Status check_contract_cluster(const Policy& policy, const Contract& contract,
                              const std::string& where) {
  const ContractCluster& stated = contract.spec.cluster;
  const Cluster* cluster = policy.find_cluster(stated.name);
  if (cluster == nullptr) {
    return not_found("unknown Cluster '" + stated.name + "'", where + ".spec.cluster.name");
  }
  const std::string at = where + ".spec.cluster.";
  ALLOT_RETURN_IF_ERROR(
      check_agrees(stated.account, cluster->account, at + "account", stated.name));
  ALLOT_RETURN_IF_ERROR(check_agrees(stated.region, cluster->region, at + "region", stated.name));
  ALLOT_RETURN_IF_ERROR(check_agrees(stated.orchestrator, backend_name(cluster->backend),
                                     at + "orchestrator", stated.name));
  return check_agrees(stated.orchestrator_version, cluster->orchestrator_version,
                      at + "orchestratorVersion", stated.name);
}

// Each monitoring signal is an applied Signal: deleting one that a contract
// names is refused with this message until the contract stops naming it.
Status check_monitoring_signals(const Policy& policy, const Contract& contract,
                                const std::string& where) {
  const std::vector<std::string>& names = contract.spec.monitoring_signals;
  for (size_t i = 0; i < names.size(); ++i) {
    const bool applied = std::any_of(policy.signals.begin(), policy.signals.end(),
                                     [&](const Signal& s) { return s.meta.name == names[i]; });
    if (applied) continue;
    return not_found("no Signal '" + names[i] +
                         "' is applied; a contract's monitoringSignals name applied Signals (a "
                         "monitored Signal is deleted once no contract names it)",
                     where + ".spec.monitoringSignals[" + std::to_string(i) + "]");
  }
  return {};
}

Status check_contract(const Policy& policy, const Contract& contract) {
  const std::string where = "Contract/" + contract.meta.name;
  const Organization* org = policy.organization();
  if (org == nullptr) {
    return failed_precondition(
        "a Contract needs the installation's Organization, which defines its data classifications",
        where + ".spec.dataClassification");
  }
  if (!org->rank(contract.spec.data_classification)) {
    return invalid_argument("'" + contract.spec.data_classification +
                                "' is no data classification of Organization '" + org->meta.name +
                                "'",
                            where + ".spec.dataClassification");
  }
  ALLOT_RETURN_IF_ERROR(check_contract_cluster(policy, contract, where));
  if (contract.spec.namespaces.empty() && !contract.spec.slurm_scope) {
    return invalid_argument("a Contract names its namespaces or its slurmScope",
                            where + ".spec.namespaces");
  }
  for (size_t i = 0; i < contract.spec.namespaces.size(); ++i) {
    if (policy.find_team_by_namespace(contract.spec.namespaces[i]) == nullptr) {
      return not_found("no Team has namespace '" + contract.spec.namespaces[i] + "'",
                       where + ".spec.namespaces[" + std::to_string(i) + "]");
    }
  }
  return check_monitoring_signals(policy, contract, where);
}

// The reference of what an exception relaxes, by its target.
Status check_exception_target(const Policy& policy, const PolicyExceptionSpec& spec,
                              const std::string& where) {
  const std::string at = where + ".spec.relaxes.";
  switch (spec.target) {
    case ExceptionTarget::kQuota:
      if (policy.find_flavor(spec.quota.flavor) != nullptr) return {};
      return not_found("unknown ResourceFlavor '" + spec.quota.flavor + "'", at + "quota.flavor");
    case ExceptionTarget::kPriorityClass:
      if (policy.find_priority_class(spec.priority_class) != nullptr) return {};
      return not_found("unknown PriorityClass '" + spec.priority_class + "'", at + "priorityClass");
    case ExceptionTarget::kWorkloadKind: return {};
    case ExceptionTarget::kDataClassification: {
      const Organization* org = policy.organization();
      if (org != nullptr && org->rank(spec.data_classification)) return {};
      return invalid_argument(
          "'" + spec.data_classification + "' is no data classification of the Organization",
          at + "dataClassification");
    }
  }
  return {};
}

Status check_policy_exception(const Policy& policy, const PolicyException& exception) {
  const std::string where = "PolicyException/" + exception.meta.name;
  const PolicyExceptionSpec& spec = exception.spec;
  if (policy.find_team(spec.team) == nullptr) {
    return not_found("unknown Team '" + spec.team + "'", where + ".spec.team");
  }
  ALLOT_RETURN_IF_ERROR(check_exception_target(policy, spec, where));
  if (spec.approver == spec.owner) {
    return invalid_argument("'" + spec.owner +
                                "' owns this exception and cannot approve it: approval needs an "
                                "approver who is not the requester",
                            where + ".spec.approver");
  }
  return {};
}

}  // namespace

Status check_governance(const Policy& policy) {
  ALLOT_RETURN_IF_ERROR(check_organization(policy));
  for (const Contract& contract : policy.contracts) {
    ALLOT_RETURN_IF_ERROR(check_contract(policy, contract));
  }
  for (const PolicyException& exception : policy.exceptions) {
    ALLOT_RETURN_IF_ERROR(check_policy_exception(policy, exception));
  }
  return {};
}

}  // namespace allot
