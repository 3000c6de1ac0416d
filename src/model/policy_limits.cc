#include "model/policy_limits.h"

#include <map>
#include <string>
#include <utility>

namespace allot {
namespace {

std::string at_most(std::string_view what, int64_t limit, int64_t value) {
  return std::string(what) + ": at most " + std::to_string(limit) +
         " (this policy: " + std::to_string(value) + ")";
}

// Sums per flavor and resource, without overflow.
class FlavorTotals {
 public:
  // Adds count * amount; false once the total passes kMaxTotalQuantity.
  bool add(const std::string& flavor, Resource resource, int64_t count, int64_t amount) {
    int64_t& total = totals_[{flavor, static_cast<int>(resource)}];
    int64_t added = 0;
    return !__builtin_mul_overflow(count, amount, &added) &&
           !__builtin_add_overflow(total, added, &total) && total <= kMaxTotalQuantity;
  }

 private:
  std::map<std::pair<std::string, int>, int64_t> totals_;
};

std::string total_error(std::string_view what, const std::string& flavor, Resource resource) {
  return std::string(what) + " of " + std::string(resource_name(resource)) + " in flavor '" +
         flavor + "' total more than 2^60, the most allot accounts";
}

Status check_node_pool_limits(const Policy& policy) {
  int64_t nodes = 0;
  FlavorTotals totals;
  for (const NodePool& pool : policy.node_pools) {
    const std::string where = "NodePool/" + pool.meta.name + ".spec";
    nodes += pool.count;
    if (nodes > kMaxPolicyNodes) {
      return invalid_argument(at_most("nodes in all NodePools", kMaxPolicyNodes, nodes),
                              where + ".count");
    }
    if (pool.topology.nodes_per_rack > kMaxNodesPerRack) {
      return invalid_argument(
          at_most("nodesPerRack", kMaxNodesPerRack, pool.topology.nodes_per_rack),
          where + ".topology.nodesPerRack");
    }
    if (pool.topology.racks_per_block > kMaxRacksPerBlock) {
      return invalid_argument(
          at_most("racksPerBlock", kMaxRacksPerBlock, pool.topology.racks_per_block),
          where + ".topology.racksPerBlock");
    }
    for (Resource resource : kAllResources) {
      if (!totals.add(pool.flavor, resource, pool.count, pool.resources[resource])) {
        return invalid_argument(total_error("the nodes' resources", pool.flavor, resource),
                                where + ".resources." + std::string(resource_name(resource)));
      }
    }
  }
  return {};
}

// Nominal quotas, borrowing limits and lending limits, each summed apart.
struct QuotaTotals {
  FlavorTotals nominal;
  FlavorTotals borrowing;
  FlavorTotals lending;
};

Status add_quota(const std::vector<FlavorQuota>& quota, const std::string& where,
                 QuotaTotals& totals) {
  for (const FlavorQuota& flavor : quota) {
    for (Resource resource : kAllResources) {
      const ResourceQuota& q = flavor.resources[static_cast<size_t>(resource)];
      const bool fits =
          totals.nominal.add(flavor.flavor, resource, 1, q.nominal) &&
          totals.borrowing.add(flavor.flavor, resource, 1, q.borrowing_limit.value_or(0)) &&
          totals.lending.add(flavor.flavor, resource, 1, q.lending_limit.value_or(0));
      if (!fits) {
        return invalid_argument(total_error("quotas", flavor.flavor, resource), where);
      }
    }
  }
  return {};
}

Status check_quota_totals(const Policy& policy) {
  QuotaTotals totals;
  for (const Team& team : policy.teams) {
    ALLOT_RETURN_IF_ERROR(add_quota(team.quota, "Team/" + team.meta.name + ".spec.quota", totals));
  }
  for (const Cohort& cohort : policy.cohorts) {
    ALLOT_RETURN_IF_ERROR(
        add_quota(cohort.quota, "Cohort/" + cohort.meta.name + ".spec.quota", totals));
  }
  return {};
}

}  // namespace

Status check_policy_limits(const Policy& policy) {
  const auto teams = static_cast<int64_t>(policy.teams.size());
  if (teams > kMaxPolicyTeams) {
    return invalid_argument(at_most("teams", kMaxPolicyTeams, teams),
                            "Team/" + policy.teams[kMaxPolicyTeams].meta.name);
  }
  const auto cohorts = static_cast<int64_t>(policy.cohorts.size());
  if (cohorts > kMaxPolicyCohorts) {
    return invalid_argument(at_most("cohorts", kMaxPolicyCohorts, cohorts),
                            "Cohort/" + policy.cohorts[kMaxPolicyCohorts].meta.name);
  }
  ALLOT_RETURN_IF_ERROR(check_node_pool_limits(policy));
  return check_quota_totals(policy);
}

}  // namespace allot
