#include "api/governance_documents.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "api/resource_fields.h"
#include "api/rfc3339.h"
#include "api/signal_document.h"

namespace allot {
namespace {

constexpr EnumName<WorkloadKind> kContractWorkloadKinds[] = {
    {"TrainingJob", WorkloadKind::kTrainingJob},
    {"InferenceEndpoint", WorkloadKind::kInferenceEndpoint},
    {"Space", WorkloadKind::kSpace},
    {"Job", WorkloadKind::kJob},
};

Result<ContractOwners> decode_contract_owners(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  ContractOwners owners;
  ALLOT_RETURN_IF_ERROR(map.read_required_string("business", owners.business));
  ALLOT_RETURN_IF_ERROR(map.read_required_string("operations", owners.operations));
  ALLOT_RETURN_IF_ERROR(map.read_required_string("cost", owners.cost));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return owners;
}

Result<ContractCluster> decode_contract_cluster(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  ContractCluster cluster;
  ALLOT_RETURN_IF_ERROR(map.read_required_name("name", cluster.name));
  ALLOT_RETURN_IF_ERROR(map.read_string("account", cluster.account));
  ALLOT_RETURN_IF_ERROR(map.read_string("region", cluster.region));
  ALLOT_RETURN_IF_ERROR(map.read_string("orchestrator", cluster.orchestrator));
  ALLOT_RETURN_IF_ERROR(map.read_string("orchestratorVersion", cluster.orchestrator_version));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return cluster;
}

Result<SlurmScope> decode_slurm_scope(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  SlurmScope scope;
  ALLOT_RETURN_IF_ERROR(map.read_required_string("account", scope.account));
  ALLOT_RETURN_IF_ERROR(map.read_string("partition", scope.partition));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return scope;
}

Result<ContractTerms> decode_contract_terms(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  ContractTerms terms;
  ALLOT_RETURN_IF_ERROR(map.read_string("monitoring", terms.monitoring));
  ALLOT_RETURN_IF_ERROR(map.read_string("support", terms.support));
  ALLOT_RETURN_IF_ERROR(map.read_string("decommission", terms.decommission));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return terms;
}

Result<std::vector<WorkloadKind>> decode_approved_kinds(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(const std::vector<Field> items, field.elements());
  if (items.empty()) return field.error("a Contract approves at least one workload kind");
  std::vector<WorkloadKind> kinds;
  for (const Field& item : items) {
    ALLOT_ASSIGN_OR_RETURN(const WorkloadKind kind,
                           item.as_enum<WorkloadKind>(kContractWorkloadKinds));
    if (std::find(kinds.begin(), kinds.end(), kind) != kinds.end()) {
      return item.error("this workload kind is listed twice");
    }
    kinds.push_back(kind);
  }
  return kinds;
}

Result<std::vector<std::string>> decode_contract_namespaces(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(const std::vector<Field> items, field.elements());
  std::vector<std::string> namespaces;
  for (const Field& item : items) {
    ALLOT_ASSIGN_OR_RETURN(std::string ns, item.as_name());
    if (std::find(namespaces.begin(), namespaces.end(), ns) != namespaces.end()) {
      return item.error("namespace '" + ns + "' is listed twice");
    }
    namespaces.push_back(std::move(ns));
  }
  return namespaces;
}

Result<std::vector<std::string>> decode_monitoring_signals(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(const std::vector<Field> items, field.elements());
  std::vector<std::string> signals;
  for (const Field& item : items) {
    ALLOT_ASSIGN_OR_RETURN(std::string signal, item.as_name());
    if (std::find(signals.begin(), signals.end(), signal) != signals.end()) {
      return item.error("signal '" + signal + "' is listed twice");
    }
    signals.push_back(std::move(signal));
  }
  return signals;
}

Status decode_contract_reviews(MapReader& map, ContractSpec& spec) {
  ALLOT_RETURN_IF_ERROR(
      map.read("monitoringSignals", spec.monitoring_signals, decode_monitoring_signals));
  if (std::optional<Field> interval = map.get("reviewInterval")) {
    ALLOT_ASSIGN_OR_RETURN(spec.review_interval, interval->as_duration(Duration::hours(1)));
  }
  ALLOT_RETURN_IF_ERROR(map.read_duration("reviewGracePeriod", spec.review_grace_period));
  return map.read("reviewWebhook", spec.review_webhook, [](const Field& f) -> Result<std::string> {
    ALLOT_ASSIGN_OR_RETURN(std::string url, f.as_string());
    if (!is_http_url(url)) {
      return f.error("reviewWebhook must be an http:// or https:// URL with a host");
    }
    return url;
  });
}

Result<QuotaRelaxation> decode_exception_quota(const Field& field) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  QuotaRelaxation quota;
  ALLOT_RETURN_IF_ERROR(map.read_required_name("flavor", quota.flavor));
  ALLOT_ASSIGN_OR_RETURN(const Field resources, map.require("resources"));
  ALLOT_ASSIGN_OR_RETURN(const ResourceVector amounts, decode_resources(resources));
  if (amounts.is_zero()) return resources.error("a quota exception adds a positive amount");
  for (size_t r = 0; r < kResourceCount; ++r) quota.amounts[r] = amounts[static_cast<Resource>(r)];
  ALLOT_RETURN_IF_ERROR(map.finish());
  return quota;
}

// spec.relaxes: exactly one of quota, priorityClass, workloadKind, dataClassification.
Status decode_exception_relaxes(const Field& field, PolicyExceptionSpec& s) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(field));
  int given = 0;
  if (std::optional<Field> quota = map.get("quota")) {
    ++given;
    s.target = ExceptionTarget::kQuota;
    ALLOT_ASSIGN_OR_RETURN(s.quota, decode_exception_quota(*quota));
  }
  if (std::optional<Field> priority = map.get("priorityClass")) {
    ++given;
    s.target = ExceptionTarget::kPriorityClass;
    ALLOT_ASSIGN_OR_RETURN(s.priority_class, priority->as_name());
  }
  if (std::optional<Field> kind = map.get("workloadKind")) {
    ++given;
    s.target = ExceptionTarget::kWorkloadKind;
    ALLOT_ASSIGN_OR_RETURN(s.workload_kind, kind->as_enum<WorkloadKind>(kContractWorkloadKinds));
  }
  if (std::optional<Field> level = map.get("dataClassification")) {
    ++given;
    s.target = ExceptionTarget::kDataClassification;
    ALLOT_ASSIGN_OR_RETURN(s.data_classification, level->as_string());
  }
  if (given != 1) {
    return field.error(
        "a PolicyException relaxes exactly one of quota, priorityClass, workloadKind, "
        "dataClassification");
  }
  return map.finish();
}

}  // namespace

Result<Organization> decode_organization(ObjectMeta meta, const Field& spec) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(spec));
  Organization org;
  org.meta = std::move(meta);
  ALLOT_ASSIGN_OR_RETURN(const Field levels, map.require("dataClassifications"));
  ALLOT_ASSIGN_OR_RETURN(org.data_classifications, levels.as_string_list());
  ALLOT_RETURN_IF_ERROR(map.finish());
  return org;
}

Result<Contract> decode_contract(ObjectMeta meta, const Field& spec) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(spec));
  Contract contract;
  contract.meta = std::move(meta);
  ContractSpec& s = contract.spec;
  ALLOT_RETURN_IF_ERROR(map.read_required_string("project", s.project));
  ALLOT_RETURN_IF_ERROR(map.read_required("owners", s.owners, decode_contract_owners));
  ALLOT_RETURN_IF_ERROR(map.read_required("cluster", s.cluster, decode_contract_cluster));
  ALLOT_RETURN_IF_ERROR(map.read_string("projectRole", s.project_role));
  ALLOT_RETURN_IF_ERROR(map.read_string("accessRole", s.access_role));
  ALLOT_RETURN_IF_ERROR(
      map.read_required("approvedWorkloadKinds", s.approved_workload_kinds, decode_approved_kinds));
  ALLOT_RETURN_IF_ERROR(map.read_required_string("dataClassification", s.data_classification));
  ALLOT_RETURN_IF_ERROR(map.read("namespaces", s.namespaces, decode_contract_namespaces));
  ALLOT_RETURN_IF_ERROR(map.read("slurmScope", s.slurm_scope, decode_slurm_scope));
  ALLOT_RETURN_IF_ERROR(
      map.read_required_string("schedulingPolicyOwner", s.scheduling_policy_owner));
  ALLOT_RETURN_IF_ERROR(map.read_required_string("exceptionOwner", s.exception_owner));
  ALLOT_RETURN_IF_ERROR(map.read("terms", s.terms, decode_contract_terms));
  ALLOT_RETURN_IF_ERROR(decode_contract_reviews(map, s));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return contract;
}

Result<PolicyException> decode_policy_exception(ObjectMeta meta, const Field& spec) {
  ALLOT_ASSIGN_OR_RETURN(MapReader map, MapReader::open(spec));
  PolicyException exception;
  exception.meta = std::move(meta);
  PolicyExceptionSpec& s = exception.spec;
  ALLOT_RETURN_IF_ERROR(map.read_required_name("team", s.team));
  ALLOT_ASSIGN_OR_RETURN(const Field relaxes, map.require("relaxes"));
  ALLOT_RETURN_IF_ERROR(decode_exception_relaxes(relaxes, s));
  ALLOT_RETURN_IF_ERROR(map.read_required_string("owner", s.owner));
  ALLOT_RETURN_IF_ERROR(map.read_required_string("reason", s.reason));
  ALLOT_RETURN_IF_ERROR(map.read_required_string("approver", s.approver));
  ALLOT_ASSIGN_OR_RETURN(const Field expires, map.require("expires"));
  ALLOT_ASSIGN_OR_RETURN(const std::string at, expires.as_string());
  ALLOT_ASSIGN_OR_RETURN(s.expires, expires.located(parse_rfc3339(at)));
  ALLOT_RETURN_IF_ERROR(map.finish());
  return exception;
}

}  // namespace allot
