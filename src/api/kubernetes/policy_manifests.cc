#include "api/kubernetes/policy_manifests.h"

#include <string>

namespace allot {
namespace {

using nlohmann::json;

json document(std::string_view kind, const std::string& name, json spec) {
  return {{"apiVersion", "allot/v1"},
          {"kind", kind},
          {"metadata", {{"name", name}}},
          {"spec", std::move(spec)}};
}

json quota_json(const std::vector<FlavorQuota>& quota) {
  json list = json::array();
  for (const FlavorQuota& flavor : quota) {
    json resources = json::object();
    for (Resource resource : kAllResources) {
      if (!flavor.declared[static_cast<size_t>(resource)]) continue;
      const ResourceQuota& q = flavor.of(resource);
      json entry = {{"nominal", format_quantity(resource, q.nominal)}};
      if (q.borrowing_limit)
        entry["borrowingLimit"] = format_quantity(resource, *q.borrowing_limit);
      if (q.lending_limit) entry["lendingLimit"] = format_quantity(resource, *q.lending_limit);
      resources[std::string(resource_name(resource))] = entry;
    }
    list.push_back({{"flavor", flavor.flavor}, {"resources", resources}});
  }
  return list;
}

json team_spec(const Team& team) {
  constexpr const char* kReclaim[] = {"Never", "LowerPriority", "Any"};
  json borrow = {{"policy", team.preemption.borrow_within_cohort == BorrowWithinCohortPolicy::kNever
                                ? "Never"
                                : "LowerPriority"}};
  if (team.preemption.borrow_max_priority_threshold) {
    borrow["maxPriorityThreshold"] = *team.preemption.borrow_max_priority_threshold;
  }
  json spec = {
      {"namespace", team.namespace_name.empty() ? team.meta.name : team.namespace_name},
      {"fairShareWeight", team.fair_share_weight},
      {"quota", quota_json(team.quota)},
      {"preemption",
       {{"reclaimWithinCohort", kReclaim[static_cast<int>(team.preemption.reclaim_within_cohort)]},
        {"withinTeam",
         team.preemption.within_team == WithinTeamPolicy::kNever ? "Never" : "LowerPriority"},
        {"borrowWithinCohort", borrow}}},
      {"queueingStrategy",
       team.queueing == QueueingStrategy::kStrictFifo ? "StrictFIFO" : "BestEffortFIFO"}};
  if (!team.cohort.empty()) spec["cohort"] = team.cohort;
  if (!team.allowed_priority_classes.empty())
    spec["allowedPriorityClasses"] = team.allowed_priority_classes;
  json owners = json::object();
  if (!team.owners.business.empty()) owners["business"] = team.owners.business;
  if (!team.owners.operations.empty()) owners["operations"] = team.owners.operations;
  if (!team.owners.cost.empty()) owners["cost"] = team.owners.cost;
  if (!owners.empty()) spec["owners"] = owners;
  if (!team.network.egress_namespaces.empty()) {
    spec["network"] = {{"egressNamespaces", team.network.egress_namespaces}};
  }
  if (!team.storage.empty()) spec["storage"] = team.storage;
  return spec;
}

}  // namespace

std::vector<json> policy_manifests(const Policy& policy) {
  std::vector<json> documents;
  for (const ResourceFlavor& flavor : policy.flavors) {
    json spec = json::object();
    if (!flavor.node_labels.empty()) spec["nodeLabels"] = flavor.node_labels;
    if (!flavor.topology_levels.empty()) spec["topologyLevels"] = flavor.topology_levels;
    if (flavor.price != FlavorPrice{})
      spec["price"] = {{"gpuHour", flavor.price.gpu_hour},
                       {"cpuHour", flavor.price.cpu_hour},
                       {"memoryGiBHour", flavor.price.memory_gib_hour},
                       {"currency", flavor.price.currency}};
    documents.push_back(document("ResourceFlavor", flavor.meta.name, spec));
  }
  for (const Cohort& cohort : policy.cohorts) {
    json spec = {{"fairShareWeight", cohort.fair_share_weight}};
    if (!cohort.parent.empty()) spec["parent"] = cohort.parent;
    if (!cohort.quota.empty()) spec["quota"] = quota_json(cohort.quota);
    documents.push_back(document("Cohort", cohort.meta.name, spec));
  }
  for (const PriorityClass& pc : policy.priority_classes) {
    documents.push_back(document(
        "PriorityClass", pc.meta.name,
        {{"value", pc.value},
         {"preemptionPolicy",
          pc.preemption_policy == PreemptionPolicy::kNever ? "Never" : "PreemptLowerPriority"},
         {"minRuntimeSeconds", pc.min_runtime.ms() / 1000},
         {"preemptionGracePeriod", pc.preemption_grace_period.to_string()}}));
  }
  for (const Team& team : policy.teams)
    documents.push_back(document("Team", team.meta.name, team_spec(team)));
  return documents;
}

}  // namespace allot
