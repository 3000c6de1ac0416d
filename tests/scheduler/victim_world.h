// Random worlds for the victim search's property tests
// (victim_selector_property_test.cc, victim_selector_fast_path_test.cc): a
// policy of one flavor on 8 nodes x 8 GPUs with random cohorts, limits and
// preemption policies, random pending work, running work admitted as the
// scheduler decides, and the quota tree and node capacity they hold.
// Deterministic for a given generator.
#pragma once

#include <optional>
#include <random>
#include <vector>

#include "model/node_inventory.h"
#include "policy_builders.h"
#include "scheduler/capacity_index.h"
#include "scheduler/gang_placer.h"
#include "scheduler/quota_tree.h"
#include "scheduler/scheduler.h"
#include "snapshot_builders.h"

namespace allot::testing {

inline std::optional<int64_t> maybe(std::mt19937_64& rng, int64_t most) {
  if (rng() % 2 == 0) return std::nullopt;
  return 4 * static_cast<int64_t>(rng() % static_cast<uint64_t>(most / 4 + 1));
}

// One flavor, 8 nodes x 8 GPUs; a root cohort and a nested one, each with an
// own pool at random; 5 teams with random limits and preemption policies.
inline Policy random_victim_policy(std::mt19937_64& rng, bool fair_sharing) {
  Policy p;
  p.clusters.push_back({});
  p.clusters[0].meta.name = "main";
  p.clusters[0].scheduling.fair_sharing = fair_sharing;
  testing::add_gpu_pool(p, "a", "pool-a");
  Cohort root;
  root.meta.name = "root";
  Cohort child;
  child.meta.name = "child";
  child.parent = "root";
  if (rng() % 2 == 0) root.quota = {testing::gpu_quota("a", 8, std::nullopt, std::nullopt)};
  if (rng() % 2 == 0) child.quota = {testing::gpu_quota("a", 8, std::nullopt, maybe(rng, 8))};
  p.cohorts = {root, child};
  for (int i = 0; i < 3; ++i) {
    PriorityClass pc;
    pc.meta.name = "p" + std::to_string(i);
    pc.value = i * 100;
    pc.preemption_grace_period = Duration::seconds(30);
    p.priority_classes.push_back(pc);
  }
  for (int t = 0; t < 5; ++t) {
    Team team;
    team.meta.name = "t" + std::to_string(t);
    team.namespace_name = team.meta.name;
    team.cohort = t < 3 ? "child" : "root";
    team.fair_share_weight = 1.0 + static_cast<double>(rng() % 3);
    team.quota = {testing::gpu_quota("a", 4 * static_cast<int64_t>(rng() % 4), maybe(rng, 16),
                                     maybe(rng, 8))};
    static constexpr ReclaimPolicy kReclaim[] = {ReclaimPolicy::kAny, ReclaimPolicy::kLowerPriority,
                                                 ReclaimPolicy::kNever};
    team.preemption.reclaim_within_cohort = kReclaim[rng() % 3];
    team.preemption.within_team =
        rng() % 4 == 0 ? WithinTeamPolicy::kNever : WithinTeamPolicy::kLowerPriority;
    if (rng() % 2 == 0) {
      team.preemption.borrow_within_cohort = BorrowWithinCohortPolicy::kLowerPriority;
      if (rng() % 2 == 0) team.preemption.borrow_max_priority_threshold = 100;
    }
    p.teams.push_back(team);
  }
  return p;
}

inline PendingWorkload random_workload(std::mt19937_64& rng, const CompiledPolicy& policy,
                                       uint64_t id, Timestamp now) {
  PendingWorkload w;
  w.id = WorkloadId(id);
  w.team = TeamIndex(static_cast<uint32_t>(rng() % policy.team_count()));
  w.priority_class = PriorityClassIndex(static_cast<uint16_t>(rng() % 3));
  w.priority = policy.priority_class(w.priority_class).value;
  w.queued_at = now;
  PodSetRequest set;
  static constexpr int64_t kSizes[] = {1, 2, 4, 8};
  set.per_pod = ResourceVector(kSizes[rng() % 4], 1000, 0);
  set.count = static_cast<int32_t>(1 + rng() % 3);
  set.min_count = set.count;
  w.pod_sets = {set};
  return w;
}

// Running work: a few cycles of random arrivals, admitted as the scheduler
// decides (no preemption carried out), each admission started a minute apart.
inline std::vector<AdmittedWorkload> random_running(std::mt19937_64& rng,
                                                    const CompiledPolicy& policy,
                                                    const Scheduler& scheduler, uint64_t* next_id) {
  Snapshot s;
  s.nodes.assign(policy.node_count(), NodeCondition{});
  for (int step = 0; step < 6; ++step) {
    s.now = s.now + Duration::seconds(60);
    for (int i = 0; i < 4; ++i)
      s.pending.push_back(random_workload(rng, policy, (*next_id)++, s.now));
    testing::admit_planned(s, scheduler.plan(s));
  }
  return s.admitted;
}

struct Cluster {
  QuotaTree quota;
  CapacityIndex capacity;
};

inline void hold_all(Cluster& c, const std::vector<AdmittedWorkload>& running,
                     const std::vector<bool>& skip) {
  for (size_t i = 0; i < running.size(); ++i) {
    if (skip[i]) continue;
    const AdmittedWorkload& w = running[i];
    c.quota.add_usage(w.team, w.flavor, w.usage());
    for (size_t s = 0; s < w.assignment.size(); ++s) {
      for (const PodPlacement& pod : w.assignment[s].pods) {
        c.capacity.hold(pod.node, w.pod_sets[s].per_pod, pod.gpu_mask);
      }
    }
  }
}

// Whether `w` fits quota (within its nominal if asked) and nodes.
inline bool fits(Cluster& c, const PendingWorkload& w, const ResourceVector& total,
                 bool within_nominal) {
  const FlavorIndex flavor(0);
  if (!c.quota.fits(w.team, flavor, total)) return false;
  if (within_nominal && c.quota.would_borrow(w.team, flavor, total)) return false;
  const std::vector<int32_t> counts{w.pod_sets[0].count};
  return GangPlacer(c.capacity)
      .place({w.id, flavor, w.pod_sets, counts, Timestamp::infinite_future()})
      .has_value();
}

}  // namespace allot::testing
