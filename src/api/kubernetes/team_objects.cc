#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "api/kubernetes/kubernetes_names.h"
#include "api/kubernetes/kubernetes_parts.h"

namespace allot {
namespace {

using nlohmann::json;

std::string root_cohort(const Policy& policy, std::string cohort) {
  for (size_t hops = 0; hops <= policy.cohorts.size() && !cohort.empty(); ++hops) {
    const Cohort* found = policy.find_cohort(cohort);
    if (found == nullptr || found->parent.empty()) return cohort;
    cohort = found->parent;
  }
  return cohort;
}

int64_t lendable(const std::vector<FlavorQuota>& quota, std::string_view flavor,
                 Resource resource) {
  int64_t sum = 0;
  for (const FlavorQuota& entry : quota) {
    if (entry.flavor != flavor) continue;
    const ResourceQuota& of = entry.of(resource);
    sum += of.lending_limit ? std::min(*of.lending_limit, of.nominal) : of.nominal;
  }
  return sum;
}

// What the other members of `team`'s cohort tree can lend it, at most.
int64_t borrowable(const Team& team, const Policy& policy, std::string_view flavor,
                   Resource resource) {
  if (team.cohort.empty()) return 0;
  const std::string root = root_cohort(policy, team.cohort);
  int64_t sum = 0;
  for (const Team& other : policy.teams) {
    if (&other == &team || other.cohort.empty()) continue;
    if (root_cohort(policy, other.cohort) == root) sum += lendable(other.quota, flavor, resource);
  }
  for (const Cohort& cohort : policy.cohorts) {
    if (root_cohort(policy, cohort.meta.name) == root)
      sum += lendable(cohort.quota, flavor, resource);
  }
  return sum;
}

// The most `team` may hold of `resource`: per flavor, nominal plus what it may borrow.
int64_t team_ceiling(const Team& team, const Policy& policy, Resource resource) {
  int64_t sum = 0;
  for (const FlavorQuota& flavor : team.quota) {
    const ResourceQuota& quota = flavor.of(resource);
    int64_t borrow = borrowable(team, policy, flavor.flavor, resource);
    if (quota.borrowing_limit) borrow = std::min(borrow, *quota.borrowing_limit);
    sum += quota.nominal + borrow;
  }
  return sum;
}

KubernetesObject render_namespace(const Team& team, const KubernetesRenderOptions& options) {
  const std::string name = team_namespace(team, options.naming);
  KubernetesObject object = make_object("v1", "Namespace", "", name);
  json labels = {{kTeamLabel, team.meta.name}};
  if (!team.cohort.empty()) labels[kCohortLabel] = team.cohort;
  object.manifest["metadata"]["labels"] = labels;
  json annotations = json::object();
  if (!team.owners.cost.empty()) annotations["allot.dev/cost-owner"] = team.owners.cost;
  if (!team.owners.business.empty()) annotations["allot.dev/business-owner"] = team.owners.business;
  if (!team.owners.operations.empty()) {
    annotations["allot.dev/operations-owner"] = team.owners.operations;
  }
  if (!team.allowed_priority_classes.empty()) {
    std::string classes;
    for (const std::string& c : team.allowed_priority_classes) {
      classes += (classes.empty() ? "" : ",") + priority_class_name(c, options.naming);
    }
    annotations["allot.dev/allowed-priority-classes"] = classes;
  }
  if (!annotations.empty()) object.manifest["metadata"]["annotations"] = annotations;
  return object;
}

KubernetesObject render_resource_quota(const Team& team, const Policy& policy,
                                       const std::string& ns) {
  KubernetesObject object = make_object("v1", "ResourceQuota", ns, "allot-quota");
  json hard = json::object();
  for (Resource resource : kAllResources) {
    const bool named = std::any_of(team.quota.begin(), team.quota.end(), [&](const FlavorQuota& f) {
      return f.declared[static_cast<size_t>(resource)];
    });
    if (!named) continue;
    hard["requests." + std::string(kubernetes_resource_name(resource))] =
        quantity_json(resource, team_ceiling(team, policy, resource));
  }
  object.manifest["spec"] = {{"hard", hard}};
  return object;
}

// The rendered namespace of `name` in an egress list: a team's namespace names
// that team (hyperpod-ns-<team> with HyperPod names), any other is verbatim.
std::string egress_namespace(const std::string& name, const Policy& policy,
                             const KubernetesRenderOptions& options) {
  const Team* team = policy.find_team_by_namespace(name);
  return team == nullptr ? name : team_namespace(*team, options.naming);
}

json namespace_peers(const std::set<std::string>& namespaces) {
  json peers = json::array();
  for (const std::string& name : namespaces) {
    peers.push_back(
        {{"namespaceSelector", {{"matchLabels", {{"kubernetes.io/metadata.name", name}}}}}});
  }
  return peers;
}

// Default deny; egress to DNS, to its own pods and to the namespaces the team
// may reach; ingress from its own pods and from the teams that may reach it.
KubernetesObject render_network_policy(const Team& team, const Policy& policy,
                                       const KubernetesRenderOptions& options) {
  const std::string ns = team_namespace(team, options.naming);
  KubernetesObject object =
      make_object("networking.k8s.io/v1", "NetworkPolicy", ns, "allot-default-deny");
  const json dns_ports =
      json::array({{{"protocol", "UDP"}, {"port", 53}}, {{"protocol", "TCP"}, {"port", 53}}});
  const json dns = {
      {"to", json::array({{{"namespaceSelector",
                            {{"matchLabels", {{"kubernetes.io/metadata.name", "kube-system"}}}}},
                           {"podSelector", {{"matchLabels", {{"k8s-app", "kube-dns"}}}}}}})},
      {"ports", dns_ports}};
  const json own = {{"podSelector", json::object()}};
  json egress = json::array({dns, {{"to", json::array({own})}}});
  std::set<std::string> reached;
  for (const std::string& name : team.network.egress_namespaces) {
    const std::string rendered = egress_namespace(name, policy, options);
    if (rendered != ns) reached.insert(rendered);
  }
  if (!reached.empty()) egress.push_back({{"to", namespace_peers(reached)}});
  json ingress = json::array({{{"from", json::array({own})}}});
  std::set<std::string> reaching;
  for (const Team& other : policy.teams) {
    if (&other == &team) continue;
    for (const std::string& name : other.network.egress_namespaces) {
      if (egress_namespace(name, policy, options) == ns)
        reaching.insert(team_namespace(other, options.naming));
    }
  }
  if (!reaching.empty()) ingress.push_back({{"from", namespace_peers(reaching)}});
  object.manifest["spec"] = {{"podSelector", json::object()},
                             {"policyTypes", json::array({"Ingress", "Egress"})},
                             {"ingress", ingress},
                             {"egress", egress}};
  return object;
}

}  // namespace

std::vector<KubernetesObject> render_team_objects(const Team& team, const Policy& policy,
                                                  const KubernetesRenderOptions& options) {
  const std::string ns = team_namespace(team, options.naming);
  std::vector<KubernetesObject> objects;
  objects.push_back(render_namespace(team, options));
  KubernetesObject account = make_object("v1", "ServiceAccount", ns, "allot-workload");
  account.manifest["metadata"]["labels"] = {{kTeamLabel, team.meta.name}};
  objects.push_back(std::move(account));
  if (!resource_groups_json(team.quota, true).empty()) {
    objects.push_back(render_resource_quota(team, policy, ns));
  }
  objects.push_back(render_network_policy(team, policy, options));
  return objects;
}

}  // namespace allot
