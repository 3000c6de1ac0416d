#include "model/policy.h"

#include <algorithm>
#include <set>
#include <string>

#include "model/governance_validation.h"
#include "model/policy_limits.h"

namespace allot {
namespace {

template <typename T>
const T* find_by_name(const std::vector<T>& items, std::string_view name) {
  auto it = std::find_if(items.begin(), items.end(),
                         [&](const T& item) { return item.meta.name == name; });
  return it == items.end() ? nullptr : &*it;
}

template <typename T>
Status check_unique_names(const std::vector<T>& items, std::string_view kind) {
  std::set<std::string> seen;
  for (const T& item : items) {
    if (item.meta.name.empty()) {
      return invalid_argument(std::string(kind) + " without a name", "metadata.name");
    }
    if (!seen.insert(item.meta.name).second) {
      return invalid_argument("duplicate " + std::string(kind) + " '" + item.meta.name + "'",
                              std::string(kind) + "/" + item.meta.name);
    }
  }
  return {};
}

Status check_quota_flavors(const Policy& policy, const std::vector<FlavorQuota>& quota,
                           const std::string& where) {
  std::set<std::string> seen;
  for (size_t i = 0; i < quota.size(); ++i) {
    const std::string field = where + ".spec.quota[" + std::to_string(i) + "].flavor";
    if (policy.find_flavor(quota[i].flavor) == nullptr) {
      return not_found("unknown ResourceFlavor '" + quota[i].flavor + "'", field);
    }
    if (!seen.insert(quota[i].flavor).second) {
      return invalid_argument("flavor '" + quota[i].flavor + "' listed twice", field);
    }
  }
  return {};
}

Status check_cohort_tree(const Policy& policy) {
  for (const Cohort& cohort : policy.cohorts) {
    const std::string where = "Cohort/" + cohort.meta.name;
    ALLOT_RETURN_IF_ERROR(check_quota_flavors(policy, cohort.quota, where));
    std::set<std::string> path = {cohort.meta.name};
    const Cohort* current = &cohort;
    while (!current->parent.empty()) {
      const Cohort* parent = policy.find_cohort(current->parent);
      if (parent == nullptr) {
        return not_found("unknown parent cohort '" + current->parent + "'",
                         "Cohort/" + current->meta.name + ".spec.parent");
      }
      if (!path.insert(parent->meta.name).second) {
        // The cycle may not pass through `cohort` itself (a -> b -> c -> b): name
        // the cohort that is its own ancestor.
        return invalid_argument("cohort '" + parent->meta.name + "' is its own ancestor",
                                "Cohort/" + parent->meta.name + ".spec.parent");
      }
      current = parent;
    }
  }
  return {};
}

Status check_teams(const Policy& policy) {
  std::set<std::string> namespaces;
  for (const Team& team : policy.teams) {
    const std::string where = "Team/" + team.meta.name;
    if (!team.cohort.empty() && policy.find_cohort(team.cohort) == nullptr) {
      return not_found("unknown cohort '" + team.cohort + "'", where + ".spec.cohort");
    }
    if (!namespaces.insert(team.namespace_name).second) {
      return invalid_argument("namespace '" + team.namespace_name + "' belongs to two teams",
                              where + ".spec.namespace");
    }
    ALLOT_RETURN_IF_ERROR(check_quota_flavors(policy, team.quota, where));
    for (size_t i = 0; i < team.allowed_priority_classes.size(); ++i) {
      if (policy.find_priority_class(team.allowed_priority_classes[i]) == nullptr) {
        return not_found("unknown PriorityClass '" + team.allowed_priority_classes[i] + "'",
                         where + ".spec.allowedPriorityClasses[" + std::to_string(i) + "]");
      }
    }
  }
  return {};
}

// A Budget names a team, or a Contract (a project), of the policy.
Status check_budgets(const Policy& policy) {
  for (const Budget& budget : policy.budgets) {
    if (!budget.spec.project.empty()) {
      const bool known = std::any_of(
          policy.contracts.begin(), policy.contracts.end(),
          [&](const Contract& contract) { return contract.meta.name == budget.spec.project; });
      if (!known) {
        return not_found("unknown project (Contract) '" + budget.spec.project + "'",
                         "Budget/" + budget.meta.name + ".spec.project");
      }
      continue;
    }
    if (policy.find_team(budget.spec.team) == nullptr) {
      return not_found("unknown team '" + budget.spec.team + "'",
                       "Budget/" + budget.meta.name + ".spec.team");
    }
  }
  return {};
}

Status check_node_pools(const Policy& policy) {
  for (const NodePool& pool : policy.node_pools) {
    const std::string where = "NodePool/" + pool.meta.name;
    if (policy.find_flavor(pool.flavor) == nullptr) {
      return not_found("unknown ResourceFlavor '" + pool.flavor + "'", where + ".spec.flavor");
    }
    if (!pool.cluster.empty() &&
        std::none_of(policy.clusters.begin(), policy.clusters.end(),
                     [&](const Cluster& c) { return c.meta.name == pool.cluster; })) {
      return not_found("unknown Cluster '" + pool.cluster + "'", where + ".spec.cluster");
    }
    if (!pool.node_names.empty() && pool.node_names.size() != static_cast<size_t>(pool.count)) {
      return invalid_argument("nodeNames names " + std::to_string(pool.node_names.size()) +
                                  " nodes but count is " + std::to_string(pool.count),
                              where + ".spec.nodeNames");
    }
  }
  std::set<std::string> names;
  for (const NodePool& pool : policy.node_pools) {
    for (const std::string& name : pool.node_names) {
      if (!names.insert(name).second) {
        return invalid_argument("node '" + name + "' is named twice",
                                "NodePool/" + pool.meta.name + ".spec.nodeNames");
      }
    }
  }
  return {};
}

}  // namespace

const Team* Policy::find_team(std::string_view name) const { return find_by_name(teams, name); }

const Team* Policy::find_team_by_namespace(std::string_view ns) const {
  auto it = std::find_if(teams.begin(), teams.end(),
                         [&](const Team& team) { return team.namespace_name == ns; });
  return it == teams.end() ? nullptr : &*it;
}

const PriorityClass* Policy::find_priority_class(std::string_view name) const {
  return find_by_name(priority_classes, name);
}

const ResourceFlavor* Policy::find_flavor(std::string_view name) const {
  return find_by_name(flavors, name);
}

const Cohort* Policy::find_cohort(std::string_view name) const {
  return find_by_name(cohorts, name);
}

const Cluster* Policy::find_cluster(std::string_view name) const {
  return find_by_name(clusters, name);
}

const Organization* Policy::organization() const {
  return organizations.empty() ? nullptr : &organizations.front();
}

Status validate_policy(const Policy& policy) {
  ALLOT_RETURN_IF_ERROR(check_unique_names(policy.clusters, "Cluster"));
  ALLOT_RETURN_IF_ERROR(check_unique_names(policy.flavors, "ResourceFlavor"));
  ALLOT_RETURN_IF_ERROR(check_unique_names(policy.node_pools, "NodePool"));
  ALLOT_RETURN_IF_ERROR(check_unique_names(policy.cohorts, "Cohort"));
  ALLOT_RETURN_IF_ERROR(check_unique_names(policy.teams, "Team"));
  ALLOT_RETURN_IF_ERROR(check_unique_names(policy.priority_classes, "PriorityClass"));
  ALLOT_RETURN_IF_ERROR(check_unique_names(policy.budgets, "Budget"));
  ALLOT_RETURN_IF_ERROR(check_unique_names(policy.contracts, "Contract"));
  ALLOT_RETURN_IF_ERROR(check_unique_names(policy.exceptions, "PolicyException"));
  ALLOT_RETURN_IF_ERROR(check_unique_names(policy.signals, "Signal"));
  ALLOT_RETURN_IF_ERROR(check_budgets(policy));
  ALLOT_RETURN_IF_ERROR(check_policy_limits(policy));
  ALLOT_RETURN_IF_ERROR(check_node_pools(policy));
  ALLOT_RETURN_IF_ERROR(check_cohort_tree(policy));
  ALLOT_RETURN_IF_ERROR(check_teams(policy));
  return check_governance(policy);
}

}  // namespace allot
