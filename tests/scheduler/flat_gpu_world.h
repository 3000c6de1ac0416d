// A flat GPU world for the scheduler's property tests: one cohort of teams on
// one pool of 8 nodes x 8 GPUs, running one-pod jobs and pending gangs of
// whole-node pods.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "model/node_inventory.h"
#include "policy_builders.h"
#include "scheduler/compiled_policy.h"
#include "scheduler/snapshot.h"

namespace allot::testing {

// One cohort of teams (name, GPU nominal) on 8 nodes x 8 GPUs, each team
// reclaiming any other team's borrowed work and never its own; one priority
// class "batch" (100, 30 s grace); the cluster's consolidation policy.
inline std::shared_ptr<const CompiledPolicy> flat_gpu_policy(
    const std::vector<std::pair<std::string, int64_t>>& teams,
    ConsolidationPolicy consolidation = ConsolidationPolicy::kNever) {
  Policy p;
  p.clusters.push_back({});
  p.clusters[0].meta.name = "main";
  p.clusters[0].scheduling.consolidation = consolidation;
  testing::add_gpu_pool(p, "a", "pool-a");
  Cohort root;
  root.meta.name = "root";
  p.cohorts = {root};
  PriorityClass pc;
  pc.meta.name = "batch";
  pc.value = 100;
  pc.preemption_grace_period = Duration::seconds(30);
  p.priority_classes.push_back(pc);
  for (const auto& [name, nominal] : teams) {
    Team team;
    team.meta.name = name;
    team.namespace_name = name;
    team.cohort = "root";
    team.quota = {testing::gpu_quota("a", nominal)};
    team.preemption.reclaim_within_cohort = ReclaimPolicy::kAny;
    team.preemption.within_team = WithinTeamPolicy::kNever;
    p.teams.push_back(team);
  }
  return std::make_shared<const CompiledPolicy>(
      CompiledPolicy::compile(p, expand_node_pools(p)).value());
}

// A running one-pod job of `gpus` GPUs (and 1 CPU) of class "batch" on `node`'s GPUs `mask`.
inline AdmittedWorkload gpu_job(uint64_t id, uint32_t team, int64_t gpus, uint32_t node,
                                uint64_t mask, Timestamp admitted_at) {
  AdmittedWorkload w;
  w.id = WorkloadId(id);
  w.team = TeamIndex(team);
  w.priority_class = PriorityClassIndex(0);
  w.priority = 100;
  w.admitted_at = admitted_at;
  w.last_checkpoint = admitted_at;
  w.flavor = FlavorIndex(0);
  PodSetRequest set;
  set.per_pod = ResourceVector(gpus, 1000, 0);
  w.pod_sets = {set};
  w.assignment = {{1, {PodPlacement{NodeIndex(node), mask}}}};
  return w;
}

// A pending gang of `pods` 8-GPU pods (1 CPU each) of class "batch", queued at 1 h.
inline PendingWorkload gpu_gang(uint64_t id, uint32_t team, int32_t pods) {
  PendingWorkload gang;
  gang.id = WorkloadId(id);
  gang.team = TeamIndex(team);
  gang.priority_class = PriorityClassIndex(0);
  gang.priority = 100;
  gang.queued_at = Timestamp() + Duration::hours(1);
  PodSetRequest set;
  set.per_pod = ResourceVector(8, 1000, 0);
  set.count = pods;
  set.min_count = pods;
  gang.pod_sets = {set};
  return gang;
}

}  // namespace allot::testing
