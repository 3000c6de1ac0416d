#include "service/study/capacity_scaling.h"

#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace allot {
namespace {

// Per flavor and resource, the amount every node of the flavor has (0 when
// the pools disagree or have none).
// Keeps scaled counts well inside int32_t.
constexpr double kMaxFactor = 1000;

using NodeUnits = std::map<std::string, ResourceVector>;

NodeUnits node_units(const Policy& policy) {
  NodeUnits units;
  std::map<std::string, bool> seen;
  for (const NodePool& pool : policy.node_pools) {
    auto [unit, first] = units.try_emplace(pool.flavor, pool.resources);
    if (first) {
      continue;
    }
    for (const Resource resource : kAllResources) {
      if (unit->second[resource] != pool.resources[resource]) {
        unit->second[resource] = 0;
      }
    }
  }
  return units;
}

int64_t scaled_count(int64_t count, double factor) {
  if (count <= 0) {
    return count;
  }
  return std::max<int64_t>(1, std::llround(static_cast<double>(count) * factor));
}

int64_t scaled_amount(int64_t amount, int64_t unit, double factor) {
  if (unit > 0 && amount % unit == 0) {
    return scaled_count(amount / unit, factor) * unit;
  }
  return std::llround(static_cast<double>(amount) * factor);
}

void scale_quota(std::vector<FlavorQuota>& quotas, const NodeUnits& units, double factor) {
  for (FlavorQuota& quota : quotas) {
    const auto unit = units.find(quota.flavor);
    for (const Resource resource : kAllResources) {
      const int64_t per_node = unit == units.end() ? 0 : unit->second[resource];
      ResourceQuota& amounts = quota.resources[static_cast<size_t>(resource)];
      amounts.nominal = scaled_amount(amounts.nominal, per_node, factor);
      if (amounts.borrowing_limit) {
        amounts.borrowing_limit = scaled_amount(*amounts.borrowing_limit, per_node, factor);
      }
      if (amounts.lending_limit) {
        amounts.lending_limit = scaled_amount(*amounts.lending_limit, per_node, factor);
      }
    }
  }
}

}  // namespace

Result<Policy> scale_capacity(const Policy& policy, double factor) {
  if (!(factor > 0) || factor > kMaxFactor) {
    return invalid_argument("the capacity factor must be a number in (0, 1000]", "capacity factor");
  }
  if (factor == 1.0) {
    return policy;
  }
  Policy scaled = policy;
  const NodeUnits units = node_units(policy);
  for (NodePool& pool : scaled.node_pools) {
    pool.count = static_cast<int32_t>(scaled_count(pool.count, factor));
  }
  for (Team& team : scaled.teams) {
    scale_quota(team.quota, units, factor);
  }
  for (Cohort& cohort : scaled.cohorts) {
    scale_quota(cohort.quota, units, factor);
  }
  return scaled;
}

}  // namespace allot
