#include "service/backend_sync/backend_policy.h"

#include <utility>

#include "scheduler/team_ceiling.h"

namespace allot {
namespace {

std::string parent_name(const CompiledPolicy& policy, int32_t quota_node) {
  const int32_t parent = policy.parent(quota_node);
  return parent < 0 ? std::string() : policy.quota_node_name(parent);
}

}  // namespace

BackendPolicy backend_policy_of(const CompiledPolicy& policy, std::string root) {
  BackendPolicy out;
  out.root = std::move(root);
  for (int32_t c = 0; c < policy.cohort_count(); ++c) {
    const int32_t quota_node = policy.team_count() + c;
    out.cohorts.push_back({policy.quota_node_name(quota_node), parent_name(policy, quota_node)});
  }
  for (int32_t t = 0; t < policy.team_count(); ++t) {
    const CompiledTeam& team = policy.team(TeamIndex(t));
    SyncedTeam synced;
    synced.team = TeamId(team.name);
    synced.parent = parent_name(policy, team.quota_node);
    synced.fair_share_weight = team.fair_share_weight;
    for (const ResourceCeiling& limit : team_ceiling(policy, TeamIndex(t))) {
      synced.ceiling.push_back({policy.flavor_name(limit.flavor), limit.resource, limit.amount});
    }
    for (PriorityClassIndex allowed : team.allowed_classes) {
      synced.priority_classes.push_back(policy.priority_class(allowed).name);
    }
    out.teams.push_back(std::move(synced));
  }
  for (const CompiledPriorityClass& pc : policy.priority_classes()) {
    out.priority_classes.push_back(
        {pc.name, pc.value, pc.preemption_policy == PreemptionPolicy::kPreemptLowerPriority});
  }
  for (int32_t f = 0; f < policy.flavor_count(); ++f) {
    out.flavors.push_back(policy.flavor_name(FlavorIndex(f)));
  }
  return out;
}

}  // namespace allot
