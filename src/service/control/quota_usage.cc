#include "service/control/quota_usage.h"

#include <algorithm>
#include <map>

namespace allot {
namespace {

struct TeamCounts {
  int32_t pending = 0;
  int32_t admitted = 0;
};

int32_t root_of(const CompiledPolicy& policy, int32_t quota_node) {
  while (policy.parent(quota_node) != kNoParent) quota_node = policy.parent(quota_node);
  return quota_node;
}

// usage[team][fr], from the admitted and running workloads.
std::vector<std::vector<int64_t>> usage_by_team(const ServerState& state,
                                                std::vector<TeamCounts>& counts) {
  const CompiledPolicy& policy = *state.policy.compiled();
  std::vector<std::vector<int64_t>> usage(static_cast<size_t>(policy.team_count()),
                                          std::vector<int64_t>(policy.fr_count(), 0));
  for (const auto& [id, pointer] : state.workloads.active()) {
    const LiveWorkload& live = *pointer;
    // A suspended Space holds nothing and waits for no admission.
    if (!live.unschedulable.empty() || is_final(live.phase()) ||
        live.phase() == WorkloadPhase::kSuspended) {
      continue;
    }
    const TeamIndex team = live.request.team;
    if (is_waiting(live.phase())) {
      ++counts[team.value()].pending;
      continue;
    }
    ++counts[team.value()].admitted;
    const FlavorIndex flavor = policy.flavor_by_name(live.doc.status.flavor);
    if (!flavor.valid()) continue;
    for (size_t i = 0; i < live.doc.status.pod_sets.size(); ++i) {
      const auto pods = static_cast<int64_t>(live.doc.status.pod_sets[i].pods.size());
      const ResourceVector& per_pod = live.doc.workload.spec.pod_sets[i].resources;
      for (Resource r : kAllResources) {
        usage[team.value()][CompiledPolicy::fr_of(flavor, r)] += per_pod[r] * pods;
      }
    }
  }
  return usage;
}

// The all-zero GPU row of a team that has none (QuotaRows::kEveryTeam).
QuotaUsageRow zero_gpu_row(const CompiledPolicy& policy, int32_t team, const TeamCounts& counts) {
  QuotaUsageRow row;
  row.team = policy.team(TeamIndex(team)).name;
  const int32_t parent = policy.parent(team);
  row.cohort = parent == kNoParent ? "" : policy.quota_node_name(parent);
  if (policy.flavor_count() > 0) row.flavor = policy.flavor_name(FlavorIndex(0));
  row.resource = Resource::kGpu;
  row.pending = counts.pending;
  row.admitted = counts.admitted;
  return row;
}

}  // namespace

std::vector<QuotaUsageRow> quota_usage(const ServerState& state, QuotaRows which) {
  const CompiledPolicy& policy = *state.policy.compiled();
  std::vector<TeamCounts> counts(static_cast<size_t>(policy.team_count()));
  const std::vector<std::vector<int64_t>> usage = usage_by_team(state, counts);
  // Per cohort tree and fr: total borrowed and total idle nominal quota.
  std::map<std::pair<int32_t, int32_t>, std::pair<int64_t, int64_t>> pools;
  for (int32_t t = 0; t < policy.team_count(); ++t) {
    const int32_t root = root_of(policy, t);
    for (int32_t fr = 0; fr < policy.fr_count(); ++fr) {
      const int64_t nominal = policy.limits(t, fr).nominal;
      auto& [borrowed, idle] = pools[{root, fr}];
      borrowed += std::max<int64_t>(0, usage[t][fr] - nominal);
      idle += std::max<int64_t>(0, nominal - usage[t][fr]);
    }
  }
  std::vector<QuotaUsageRow> rows;
  for (int32_t t = 0; t < policy.team_count(); ++t) {
    const CompiledTeam& team = policy.team(TeamIndex(t));
    const int32_t parent = policy.parent(t);
    bool gpu_row = false;
    for (int32_t fr = 0; fr < policy.fr_count(); ++fr) {
      const int64_t nominal = policy.limits(t, fr).nominal;
      if (nominal == 0 && usage[t][fr] == 0) continue;
      QuotaUsageRow row;
      row.team = team.name;
      row.cohort = parent == kNoParent ? "" : policy.quota_node_name(parent);
      row.flavor = policy.flavor_name(FlavorIndex(static_cast<uint16_t>(fr / kResourceCount)));
      row.resource = static_cast<Resource>(fr % kResourceCount);
      row.nominal = nominal;
      row.usage = usage[t][fr];
      // An ungoverned resource (no quota anywhere names it) is limited by nodes
      // only: nothing of it is borrowed or lent.
      const bool governed = policy.governed(fr);
      row.borrowed = governed ? std::max<int64_t>(0, row.usage - nominal) : 0;
      const auto& [borrowed, idle] = pools[{root_of(policy, t), fr}];
      const int64_t team_idle = std::max<int64_t>(0, nominal - row.usage);
      if (governed && parent != kNoParent && idle > 0) {
        row.lent = team_idle * std::min(borrowed, idle) / idle;
      }
      row.pending = counts[t].pending;
      row.admitted = counts[t].admitted;
      gpu_row = gpu_row || row.resource == Resource::kGpu;
      rows.push_back(std::move(row));
    }
    if (which == QuotaRows::kEveryTeam && !gpu_row) {
      rows.push_back(zero_gpu_row(policy, t, counts[static_cast<size_t>(t)]));
    }
  }
  return rows;
}

}  // namespace allot
