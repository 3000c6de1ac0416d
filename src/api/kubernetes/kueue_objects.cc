#include <algorithm>
#include <array>
#include <set>
#include <string>
#include <vector>

#include "api/kubernetes/kubernetes_names.h"
#include "api/kubernetes/kubernetes_parts.h"

namespace allot {
namespace {

using nlohmann::json;

std::string_view reclaim_text(ReclaimPolicy policy) {
  switch (policy) {
    case ReclaimPolicy::kNever: return "Never";
    case ReclaimPolicy::kLowerPriority: return "LowerPriority";
    case ReclaimPolicy::kAny: return "Any";
  }
  return "Never";
}

// Kueue refuses borrowWithinCohort other than Never with reclaimWithinCohort
// Never; allot preempts in no other team then either, so it is Never there.
json preemption_json(const TeamPreemption& preemption) {
  const bool borrow_preempts =
      preemption.borrow_within_cohort != BorrowWithinCohortPolicy::kNever &&
      preemption.reclaim_within_cohort != ReclaimPolicy::kNever;
  json borrow = {{"policy", borrow_preempts ? "LowerPriority" : "Never"}};
  if (borrow_preempts && preemption.borrow_max_priority_threshold) {
    borrow["maxPriorityThreshold"] = *preemption.borrow_max_priority_threshold;
  }
  return {{"reclaimWithinCohort", reclaim_text(preemption.reclaim_within_cohort)},
          {"withinClusterQueue",
           preemption.within_team == WithinTeamPolicy::kNever ? "Never" : "LowerPriority"},
          {"borrowWithinCohort", borrow}};
}

// Limits only with a parent to borrow from and lend to: Kueue refuses them on a
// ClusterQueue without a cohort and on a root Cohort (they would mean nothing).
json flavor_resources_json(const FlavorQuota& flavor, const std::vector<Resource>& covered,
                           bool has_parent) {
  json resources = json::array();
  for (Resource resource : covered) {
    const ResourceQuota& quota = flavor.of(resource);
    json entry = {{"name", kubernetes_resource_name(resource)},
                  {"nominalQuota", quantity_json(resource, quota.nominal)}};
    if (quota.borrowing_limit && has_parent) {
      entry["borrowingLimit"] = quantity_json(resource, *quota.borrowing_limit);
    }
    if (quota.lending_limit && has_parent)
      entry["lendingLimit"] = quantity_json(resource, *quota.lending_limit);
    resources.push_back(std::move(entry));
  }
  return resources;
}

std::vector<KubernetesObject> render_flavors(const Policy& policy, std::string_view api) {
  std::vector<KubernetesObject> objects;
  std::set<std::string> topologies;
  for (const ResourceFlavor& flavor : policy.flavors) {
    KubernetesObject object = make_object(std::string(api), "ResourceFlavor", "", flavor.meta.name);
    json spec = json::object();
    if (!flavor.node_labels.empty()) spec["nodeLabels"] = flavor.node_labels;
    const std::vector<std::string> levels = flavor_topology_levels(flavor, policy);
    if (!levels.empty() && flavor.node_labels.empty()) {
      // Kueue requires a node label of a flavor with a topology.
      spec["nodeLabels"] = {{std::string(kFlavorLabel), flavor.meta.name}};
    }
    if (!levels.empty()) {
      std::string name;
      for (const std::string& level : levels) name += (name.empty() ? "" : "-") + level;
      spec["topologyName"] = name;
      if (topologies.insert(name).second) {
        KubernetesObject topology = make_object(std::string(api), "Topology", "", name);
        json list = json::array();
        for (const std::string& level : levels) {
          list.push_back({{"nodeLabel", topology_node_label(level)}});
        }
        list.push_back({{"nodeLabel", "kubernetes.io/hostname"}});
        topology.manifest["spec"] = {{"levels", list}};
        objects.push_back(std::move(topology));
      }
    }
    object.manifest["spec"] = spec;
    objects.push_back(std::move(object));
  }
  return objects;
}

KubernetesObject render_cohort(const Cohort& cohort, std::string_view api) {
  KubernetesObject object = make_object(std::string(api), "Cohort", "", cohort.meta.name);
  json spec = {{"fairSharing", {{"weight", weight_json(cohort.fair_share_weight)}}}};
  if (!cohort.parent.empty()) spec["parentName"] = cohort.parent;
  json groups = resource_groups_json(cohort.quota, !cohort.parent.empty());
  if (!groups.empty()) spec["resourceGroups"] = groups;
  object.manifest["spec"] = spec;
  return object;
}

KubernetesObject render_cluster_queue(const Team& team, const KubernetesRenderOptions& options) {
  const std::string api = kueue_api_version(options.kueue_api);
  KubernetesObject object =
      make_object(api, "ClusterQueue", "", cluster_queue_name(team.meta.name, options.naming));
  object.manifest["metadata"]["labels"] = {{kTeamLabel, team.meta.name}};
  json spec = {
      {"namespaceSelector",
       {{"matchLabels", {{"kubernetes.io/metadata.name", team_namespace(team, options.naming)}}}}},
      {"preemption", preemption_json(team.preemption)},
      {"fairSharing", {{"weight", weight_json(team.fair_share_weight)}}},
      {"queueingStrategy",
       team.queueing == QueueingStrategy::kStrictFifo ? "StrictFIFO" : "BestEffortFIFO"}};
  if (!team.cohort.empty()) {
    spec[options.kueue_api == KueueApiVersion::kV1beta1 ? "cohort" : "cohortName"] = team.cohort;
  }
  json groups = resource_groups_json(team.quota, !team.cohort.empty());
  if (!groups.empty()) spec["resourceGroups"] = groups;
  object.manifest["spec"] = spec;
  return object;
}

KubernetesObject render_local_queue(const Team& team, const KubernetesRenderOptions& options) {
  KubernetesObject object =
      make_object(kueue_api_version(options.kueue_api), "LocalQueue",
                  team_namespace(team, options.naming), local_queue_name(team, options.naming));
  object.manifest["metadata"]["labels"] = {{kTeamLabel, team.meta.name}};
  object.manifest["spec"] = {{"clusterQueue", cluster_queue_name(team.meta.name, options.naming)}};
  return object;
}

KubernetesObject render_priority_class(const PriorityClass& priority_class,
                                       const KubernetesRenderOptions& options) {
  KubernetesObject object =
      make_object(kueue_api_version(options.kueue_api), "WorkloadPriorityClass", "",
                  priority_class_name(priority_class.meta.name, options.naming));
  object.manifest["value"] = priority_class.value;
  object.manifest["description"] = "allot PriorityClass " + priority_class.meta.name;
  object.manifest["metadata"]["annotations"] = {
      {"allot.dev/preemption-policy", priority_class.preemption_policy == PreemptionPolicy::kNever
                                          ? "Never"
                                          : "PreemptLowerPriority"},
      {"allot.dev/min-runtime", priority_class.min_runtime.to_string()},
      {"allot.dev/preemption-grace-period", priority_class.preemption_grace_period.to_string()}};
  return object;
}

}  // namespace

json resource_groups_json(const std::vector<FlavorQuota>& quota, bool has_parent) {
  // The distinct sets of declared resources, in the order the flavors give them.
  std::vector<std::array<bool, kResourceCount>> sets;
  for (const FlavorQuota& flavor : quota) {
    if (std::find(sets.begin(), sets.end(), flavor.declared) == sets.end())
      sets.push_back(flavor.declared);
  }
  // A flavor that declares nothing has no group of its own: one group then.
  bool disjoint = std::none_of(sets.begin(), sets.end(), [](const auto& set) {
    return std::none_of(set.begin(), set.end(), [](bool named) { return named; });
  });
  for (size_t a = 0; a < sets.size(); ++a) {
    for (size_t b = a + 1; b < sets.size(); ++b) {
      for (size_t r = 0; r < kResourceCount; ++r)
        disjoint = disjoint && !(sets[a][r] && sets[b][r]);
    }
  }
  if (!disjoint || sets.size() < 2) {  // one group covering every resource any flavor names
    std::array<bool, kResourceCount> all{};
    for (const auto& set : sets) {
      for (size_t r = 0; r < kResourceCount; ++r) all[r] = all[r] || set[r];
    }
    sets.assign(1, all);
  }
  json groups = json::array();
  for (const auto& set : sets) {
    std::vector<Resource> covered;
    json names = json::array();
    for (Resource resource : kAllResources) {
      if (!set[static_cast<size_t>(resource)]) continue;
      covered.push_back(resource);
      names.push_back(kubernetes_resource_name(resource));
    }
    if (covered.empty()) continue;
    json flavors = json::array();
    for (const FlavorQuota& flavor : quota) {
      if (sets.size() > 1 && flavor.declared != set) continue;
      flavors.push_back({{"name", flavor.flavor},
                         {"resources", flavor_resources_json(flavor, covered, has_parent)}});
    }
    groups.push_back({{"coveredResources", names}, {"flavors", flavors}});
  }
  return groups;
}

std::vector<KubernetesObject> render_kueue_objects(const Policy& policy,
                                                   const KubernetesRenderOptions& options) {
  const std::string api = kueue_api_version(options.kueue_api);
  std::vector<KubernetesObject> objects = render_flavors(policy, api);
  for (const Cohort& cohort : policy.cohorts) objects.push_back(render_cohort(cohort, api));
  for (const Team& team : policy.teams) {
    objects.push_back(render_cluster_queue(team, options));
    objects.push_back(render_local_queue(team, options));
  }
  for (const PriorityClass& priority_class : policy.priority_classes) {
    objects.push_back(render_priority_class(priority_class, options));
  }
  return objects;
}

std::vector<std::string> flavor_topology_levels(const ResourceFlavor& flavor,
                                                const Policy& policy) {
  if (!flavor.topology_levels.empty()) return flavor.topology_levels;
  bool racks = false;
  bool blocks = false;
  for (const NodePool& pool : policy.node_pools) {
    if (pool.flavor != flavor.meta.name) continue;
    racks = racks || pool.topology.nodes_per_rack > 0;
    blocks = blocks || pool.topology.racks_per_block > 0;
  }
  if (blocks) return {"block", "rack"};
  if (racks) return {"rack"};
  return {};
}

std::string topology_node_label(std::string_view level) {
  return "allot.dev/topology-" + std::string(level);
}

}  // namespace allot
