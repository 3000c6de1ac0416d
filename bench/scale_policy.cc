#include "bench/scale_policy.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "model/node_inventory.h"

namespace allot::bench {
namespace {

constexpr const char* kFlavorNames[kFlavorCount] = {"h100", "h200", "a100", "b200"};
constexpr int64_t kGi = int64_t{1} << 30;
constexpr int64_t kCpuMillisPerGpu = 12'000;

int32_t ceil_div(int32_t a, int32_t b) { return (a + b - 1) / b; }

int32_t nodes_of_flavor(const ScaleConfig& config, int32_t flavor) {
  return config.nodes / kFlavorCount + (flavor < config.nodes % kFlavorCount ? 1 : 0);
}

std::string leaf_cohort_name(int32_t i) { return "group-" + std::to_string(i); }
std::string mid_cohort_name(int32_t i) { return "division-" + std::to_string(i); }

FlavorQuota flavor_quota(const char* flavor, int64_t gpus) {
  FlavorQuota quota;
  quota.flavor = flavor;
  quota.resources[static_cast<size_t>(Resource::kGpu)].nominal = gpus;
  quota.resources[static_cast<size_t>(Resource::kCpu)].nominal = gpus * kCpuMillisPerGpu;
  quota.declared[static_cast<size_t>(Resource::kGpu)] = true;
  quota.declared[static_cast<size_t>(Resource::kCpu)] = true;
  return quota;
}

Team make_team(std::string name, std::string cohort) {
  Team team;
  team.meta.name = name;
  team.namespace_name = std::move(name);
  team.cohort = std::move(cohort);
  team.preemption.reclaim_within_cohort = ReclaimPolicy::kAny;
  team.preemption.within_team = WithinTeamPolicy::kLowerPriority;
  return team;
}

void add_cohorts(const ScaleConfig& config, Policy& policy) {
  const int32_t leaves = std::max(1, ceil_div(config.teams, kTeamsPerLeafCohort));
  const int32_t mids = ceil_div(leaves, kCohortFanOut);
  Cohort root;
  root.meta.name = "root";
  policy.cohorts.push_back(root);
  for (int32_t m = 0; m < mids; ++m) {
    Cohort mid;
    mid.meta.name = mid_cohort_name(m);
    mid.parent = "root";
    policy.cohorts.push_back(std::move(mid));
  }
  for (int32_t l = 0; l < leaves; ++l) {
    Cohort leaf;
    leaf.meta.name = leaf_cohort_name(l);
    leaf.parent = mid_cohort_name(l / kCohortFanOut);
    policy.cohorts.push_back(std::move(leaf));
  }
}

void add_teams(const ScaleConfig& config, Policy& policy) {
  const int32_t flavor_gpus = nodes_of_flavor(config, 0) * kGpusPerNode;
  const int64_t nominal = std::max<int64_t>(1, flavor_gpus / std::max(1, config.teams));
  for (int32_t i = 0; i < config.teams; ++i) {
    Team team = make_team(regular_team_name(i), leaf_cohort_name(i / kTeamsPerLeafCohort));
    // Teams start at different flavors so that demand spreads over the cluster.
    for (int32_t k = 0; k < kFlavorCount; ++k) {
      team.quota.push_back(flavor_quota(kFlavorNames[(i + k) % kFlavorCount], nominal));
    }
    policy.teams.push_back(std::move(team));
  }
  const int32_t leaves = std::max(1, ceil_div(config.teams, kTeamsPerLeafCohort));
  for (int32_t i = 0; i < config.urgent_teams; ++i) {
    const int32_t leaf = static_cast<int32_t>(int64_t{i} * leaves / config.urgent_teams);
    Team team = make_team(urgent_team_name(i), leaf_cohort_name(leaf));
    for (const char* flavor : kFlavorNames) {
      team.quota.push_back(flavor_quota(flavor, kUrgentNominalGpus));
    }
    policy.teams.push_back(std::move(team));
  }
}

}  // namespace

std::string regular_team_name(int32_t i) { return "team-" + std::to_string(i); }
std::string urgent_team_name(int32_t i) { return "urgent-" + std::to_string(i); }

Policy make_scale_policy(const ScaleConfig& config) {
  Policy policy;
  Cluster cluster;
  cluster.meta.name = "bench";
  cluster.scheduling.fair_sharing = config.fair_sharing;
  if (config.consolidation) cluster.scheduling.consolidation = ConsolidationPolicy::kWithinNominal;
  policy.clusters.push_back(cluster);
  for (int32_t f = 0; f < kFlavorCount; ++f) {
    ResourceFlavor flavor;
    flavor.meta.name = kFlavorNames[f];
    flavor.topology_levels = {"block", "rack"};
    policy.flavors.push_back(std::move(flavor));
    NodePool pool;
    pool.meta.name = std::string(kFlavorNames[f]) + "-pool";
    pool.cluster = "bench";
    pool.flavor = kFlavorNames[f];
    pool.count = nodes_of_flavor(config, f);
    pool.resources = ResourceVector(kGpusPerNode, kCpuCoresPerNode * 1000, kMemoryGiPerNode * kGi);
    pool.topology = {kNodesPerRack, kRacksPerBlock};
    policy.node_pools.push_back(std::move(pool));
  }
  for (size_t p = 0; p < std::size(kPriorityClassNames); ++p) {
    PriorityClass pc;
    pc.meta.name = kPriorityClassNames[p];
    pc.value = kPriorityClassValues[p];
    policy.priority_classes.push_back(std::move(pc));
  }
  add_cohorts(config, policy);
  add_teams(config, policy);
  return policy;
}

std::shared_ptr<const CompiledPolicy> compile_scale_policy(const ScaleConfig& config) {
  const Policy policy = make_scale_policy(config);
  Result<CompiledPolicy> compiled = CompiledPolicy::compile(policy, expand_node_pools(policy));
  if (!compiled.ok()) {
    std::fprintf(stderr, "allot-bench: the scale policy does not compile: %s\n",
                 compiled.status().to_string().c_str());
    std::exit(2);
  }
  return std::make_shared<const CompiledPolicy>(std::move(compiled).value());
}

}  // namespace allot::bench
