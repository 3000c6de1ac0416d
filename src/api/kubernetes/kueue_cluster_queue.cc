// A Kueue ClusterQueue into an allot Team (kueue_import.h).
#include <cstdint>
#include <string>

#include "api/kubernetes/kubernetes_names.h"
#include "api/kubernetes/kubernetes_render.h"
#include "api/kubernetes/kueue_fields.h"
#include "model/policy.h"

namespace allot {
namespace {

using nlohmann::json;

Status read_borrow(const KueueDoc& doc, const json& borrow, TeamPreemption& preemption) {
  const std::string path = "spec.preemption.borrowWithinCohort";
  ALLOT_RETURN_IF_ERROR(doc.expect_object(borrow, path));
  ALLOT_RETURN_IF_ERROR(doc.expect_only(borrow, path, {"policy", "maxPriorityThreshold"}));
  const std::string policy = borrow.value("policy", "Never");
  if (policy == "LowerPriority") {
    preemption.borrow_within_cohort = BorrowWithinCohortPolicy::kLowerPriority;
  } else if (policy != "Never") {
    return doc.error(path + ".policy", "policy is Never or LowerPriority, not " + policy);
  }
  if (borrow.contains("maxPriorityThreshold")) {
    const json& threshold = borrow.at("maxPriorityThreshold");
    if (!threshold.is_number_integer() || threshold.get<int64_t>() < INT32_MIN ||
        threshold.get<int64_t>() > INT32_MAX) {
      return doc.error(path + ".maxPriorityThreshold", "expected an int32");
    }
    preemption.borrow_max_priority_threshold = threshold.get<int32_t>();
  }
  return Status();
}

Status read_preemption(const KueueDoc& doc, const json& preemption, TeamPreemption& out) {
  const std::string path = "spec.preemption";
  ALLOT_RETURN_IF_ERROR(doc.expect_object(preemption, path));
  ALLOT_RETURN_IF_ERROR(doc.expect_only(
      preemption, path, {"reclaimWithinCohort", "withinClusterQueue", "borrowWithinCohort"}));
  if (preemption.is_null()) return Status();
  const std::string reclaim = preemption.value("reclaimWithinCohort", "Never");
  if (reclaim == "Any") {
    out.reclaim_within_cohort = ReclaimPolicy::kAny;
  } else if (reclaim == "LowerPriority") {
    out.reclaim_within_cohort = ReclaimPolicy::kLowerPriority;
  } else if (reclaim != "Never") {
    return doc.error(path + ".reclaimWithinCohort", "Never, LowerPriority or Any, not " + reclaim);
  }
  const std::string within = preemption.value("withinClusterQueue", "Never");
  if (within == "LowerPriority") {
    out.within_team = WithinTeamPolicy::kLowerPriority;
  } else if (within == "LowerOrNewerEqualPriority") {
    return doc.error(path + ".withinClusterQueue",
                     "allot cannot express LowerOrNewerEqualPriority: a team preempts its own "
                     "workloads of lower priority only (LowerPriority) or never");
  } else if (within != "Never") {
    return doc.error(path + ".withinClusterQueue", "Never or LowerPriority, not " + within);
  }
  if (preemption.contains("borrowWithinCohort")) {
    ALLOT_RETURN_IF_ERROR(read_borrow(doc, preemption.at("borrowWithinCohort"), out));
  }
  return Status();
}

// Kueue's defaults and nothing else: allot has no other behaviour.
Status read_defaults_only(const KueueDoc& doc, const json& spec) {
  if (spec.value("stopPolicy", "None") != "None") {
    return doc.error("spec.stopPolicy", "allot cannot hold or drain a queue");
  }
  if (spec.contains("flavorFungibility") && !spec.at("flavorFungibility").empty()) {
    return doc.error("spec.flavorFungibility",
                     "allot tries a team's flavors in order and preempts within the first that "
                     "fits; it cannot express another flavor fungibility");
  }
  if (spec.contains("namespaceSelector")) {
    const json& selector = spec.at("namespaceSelector");
    ALLOT_RETURN_IF_ERROR(doc.expect_only(selector, "spec.namespaceSelector", {"matchLabels"}));
    const json labels = selector.value("matchLabels", json::object());
    ALLOT_RETURN_IF_ERROR(doc.expect_only(labels, "spec.namespaceSelector.matchLabels",
                                          {"kubernetes.io/metadata.name"}));
  }
  return Status();
}

}  // namespace

Status read_cluster_queue(const KueueDoc& doc, const std::string& name, const json& spec,
                          Policy& policy, KubernetesNaming naming) {
  const std::string_view cohort_key =
      doc.api_version.ends_with("v1beta1") ? "cohort" : "cohortName";
  ALLOT_RETURN_IF_ERROR(
      doc.expect_only(spec, "spec",
                      {cohort_key, "namespaceSelector", "resourceGroups", "preemption",
                       "fairSharing", "queueingStrategy", "stopPolicy", "flavorFungibility"}));
  ALLOT_RETURN_IF_ERROR(read_defaults_only(doc, spec));
  Team team;
  team.meta.name = team_from_cluster_queue(name, naming);
  if (team.meta.name.empty()) {
    return doc.error("metadata.name", "not hyperpod-ns-<team>-clusterqueue (HyperPod)");
  }
  team.namespace_name = team.meta.name;
  // The one namespace a selector names is the team's (a LocalQueue's overrides it).
  if (naming == KubernetesNaming::kPlain && spec.contains("namespaceSelector")) {
    const json labels = spec.at("namespaceSelector").value("matchLabels", json::object());
    ALLOT_RETURN_IF_ERROR(doc.read_string(labels, "spec.namespaceSelector.matchLabels",
                                          "kubernetes.io/metadata.name", team.namespace_name));
  }
  ALLOT_RETURN_IF_ERROR(doc.read_string(spec, "spec", cohort_key, team.cohort));
  if (spec.contains("fairSharing")) {
    const json& fair = spec.at("fairSharing");
    ALLOT_RETURN_IF_ERROR(doc.expect_only(fair, "spec.fairSharing", {"weight"}));
    if (fair.contains("weight")) {
      Result<double> weight = weight_from_json(fair.at("weight"));
      if (!weight.ok()) return doc.error("spec.fairSharing.weight", weight.status().message());
      team.fair_share_weight = *weight;
    }
  }
  const std::string queueing = spec.value("queueingStrategy", "BestEffortFIFO");
  if (queueing == "StrictFIFO") {
    team.queueing = QueueingStrategy::kStrictFifo;
  } else if (queueing != "BestEffortFIFO") {
    return doc.error("spec.queueingStrategy", "StrictFIFO or BestEffortFIFO, not " + queueing);
  }
  if (spec.contains("preemption")) {
    ALLOT_RETURN_IF_ERROR(read_preemption(doc, spec.at("preemption"), team.preemption));
  }
  ALLOT_RETURN_IF_ERROR(read_resource_groups(doc, spec.value("resourceGroups", json()),
                                             "spec.resourceGroups", team.quota));
  policy.teams.push_back(std::move(team));
  return Status();
}

}  // namespace allot
