// The parts of render_kubernetes() (kubernetes_render.h), one file each:
// the Kueue objects (kueue_objects.cc), a team's core objects
// (team_objects.cc), its access (team_access.cc) and the mapping report
// (mapping_report.cc). Internal to api/kubernetes.
//
// Contract: pure functions of their arguments; objects come unsorted
// (render_kubernetes() sorts them). REQUIRES: a valid policy.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/kubernetes/kubernetes_render.h"
#include "model/policy.h"
#include "model/rbac/rbac_policy.h"

namespace allot {

// {apiVersion, kind, metadata: {name[, namespace]}} as an object.
KubernetesObject make_object(std::string api_version, std::string kind, std::string namespace_name,
                             std::string name);

// Kueue's resourceGroups for a list of flavor quotas. When the flavors declare
// two or more distinct sets of resources and those sets are pairwise disjoint
// (as an import of several groups gives: flavor per group), one group per
// set, in the order the flavors first name it. Otherwise one group covering
// every resource that any flavor declares, flavors in order, undeclared
// resources of a flavor with nominalQuota 0. Borrowing and lending limits
// only when `has_parent` (a ClusterQueue with a cohort, a Cohort with a
// parent): Kueue refuses them elsewhere, where they mean nothing.
nlohmann::json resource_groups_json(const std::vector<FlavorQuota>& quota, bool has_parent);

// ResourceFlavor, Topology, Cohort, ClusterQueue, LocalQueue, WorkloadPriorityClass.
std::vector<KubernetesObject> render_kueue_objects(const Policy& policy,
                                                   const KubernetesRenderOptions& options);

// Namespace, ServiceAccount, ResourceQuota, NetworkPolicy of one team.
std::vector<KubernetesObject> render_team_objects(const Team& team, const Policy& policy,
                                                  const KubernetesRenderOptions& options);

// Roles allot-view and allot-act, and their RoleBindings, of one team.
std::vector<KubernetesObject> render_team_access(const Team& team, const RbacPolicy& rbac,
                                                 const KubernetesRenderOptions& options);

// What Kubernetes cannot express of this policy and RBAC.
std::vector<MappingNote> mapping_notes(const Policy& policy, const RbacPolicy& rbac,
                                       const KubernetesRenderOptions& options);

// The topology levels of a flavor (its own, or block/rack from its pools'
// topology); empty when it has none. Topology name: the levels joined by '-'.
std::vector<std::string> flavor_topology_levels(const ResourceFlavor& flavor, const Policy& policy);
std::string topology_node_label(std::string_view level);

}  // namespace allot
