// Property test of the fair-sharing victim search's kept heaps of children
// (fair_share_target_heap.cc): over random three-level cohort trees, many
// teams with equal weights (so that shares tie) and running work of small
// sizes (so that a search takes many rounds), every search with the heaps
// answers as the walk from the root per round (the plain path): the same
// verdict, the same victims in the same order, the same reasons.
#include <random>

#include <gtest/gtest.h>

#include "model/node_inventory.h"
#include "policy_builders.h"
#include "scheduler/capacity_index.h"
#include "scheduler/quota_tree.h"
#include "scheduler/scheduler.h"
#include "scheduler/topology.h"
#include "scheduler/victim_selector.h"
#include "snapshot_builders.h"

namespace allot {
namespace {

void add_team(std::mt19937_64& rng, const std::string& name, const std::string& cohort, Policy& p) {
  Team team;
  team.meta.name = name;
  team.namespace_name = name;
  team.cohort = cohort;
  team.fair_share_weight = rng() % 4 == 0 ? 2.0 : 1.0;
  team.quota = {testing::gpu_quota("a", 2 * static_cast<int64_t>(rng() % 3))};
  team.preemption.reclaim_within_cohort =
      rng() % 5 == 0 ? ReclaimPolicy::kLowerPriority : ReclaimPolicy::kAny;
  team.preemption.within_team = WithinTeamPolicy::kLowerPriority;
  p.teams.push_back(team);
}

// Root -> 3 cohorts -> 2 leaf cohorts each -> 2 or 3 teams each, and at
// random a team beside the cohorts under the root and under each of the
// three; weights and quotas from a few values, so that equal shares are common.
Policy random_heap_policy(std::mt19937_64& rng) {
  Policy p;
  p.clusters.push_back({});
  p.clusters[0].meta.name = "main";
  p.clusters[0].scheduling.fair_sharing = true;
  testing::add_gpu_pool(p, "a", "pool-a");
  Cohort root;
  root.meta.name = "root";
  if (rng() % 2 == 0) root.quota = {testing::gpu_quota("a", 8)};
  p.cohorts.push_back(root);
  for (int m = 0; m < 3; ++m) {
    Cohort mid;
    mid.meta.name = "mid" + std::to_string(m);
    mid.parent = "root";
    mid.fair_share_weight = rng() % 4 == 0 ? 2.0 : 1.0;
    if (rng() % 3 == 0) mid.quota = {testing::gpu_quota("a", 4)};
    p.cohorts.push_back(mid);
    for (int l = 0; l < 2; ++l) {
      Cohort leaf;
      leaf.meta.name = mid.meta.name + "-leaf" + std::to_string(l);
      leaf.parent = mid.meta.name;
      leaf.fair_share_weight = rng() % 4 == 0 ? 2.0 : 1.0;
      p.cohorts.push_back(leaf);
      const int teams = 2 + static_cast<int>(rng() % 2);
      for (int t = 0; t < teams; ++t)
        add_team(rng, leaf.meta.name + "-t" + std::to_string(t), leaf.meta.name, p);
    }
    // Teams beside cohorts, whose shares can tie with a cohort's.
    if (rng() % 2 == 0) add_team(rng, mid.meta.name + "-own", mid.meta.name, p);
  }
  if (rng() % 2 == 0) add_team(rng, "root-own", "root", p);
  for (int i = 0; i < 3; ++i) {
    PriorityClass pc;
    pc.meta.name = "p" + std::to_string(i);
    pc.value = i * 100;
    pc.preemption_grace_period = Duration::seconds(30);
    p.priority_classes.push_back(pc);
  }
  return p;
}

PendingWorkload random_tree_work(std::mt19937_64& rng, const CompiledPolicy& policy, uint64_t id,
                                 Timestamp now, bool large) {
  PendingWorkload w;
  w.id = WorkloadId(id);
  w.team = TeamIndex(static_cast<uint32_t>(rng() % policy.team_count()));
  w.priority_class = PriorityClassIndex(static_cast<uint16_t>(rng() % 3));
  w.priority = policy.priority_class(w.priority_class).value;
  w.queued_at = now;
  PodSetRequest set;
  static constexpr int64_t kSmall[] = {1, 1, 1, 2};
  static constexpr int64_t kLarge[] = {1, 2, 4, 8};
  set.per_pod = ResourceVector(large ? kLarge[rng() % 4] : kSmall[rng() % 4], 1000, 0);
  set.count = static_cast<int32_t>(1 + rng() % (large ? 2 : 1));
  set.min_count = set.count;
  w.pod_sets = {set};
  return w;
}

// Running work: small workloads admitted as the scheduler decides, a minute apart.
std::vector<AdmittedWorkload> fill_tree(std::mt19937_64& rng, const CompiledPolicy& policy,
                                        uint64_t* next_id) {
  const Scheduler scheduler(std::make_shared<const CompiledPolicy>(policy));
  Snapshot s;
  s.nodes.assign(policy.node_count(), NodeCondition{});
  for (int step = 0; step < 8; ++step) {
    s.now = s.now + Duration::seconds(60);
    for (int i = 0; i < 12; ++i)
      s.pending.push_back(random_tree_work(rng, policy, (*next_id)++, s.now, false));
    testing::admit_planned(s, scheduler.plan(s));
  }
  return s.admitted;
}

struct HeapCluster {
  QuotaTree quota;
  CapacityIndex capacity;
};

void hold_running(HeapCluster& c, const std::vector<AdmittedWorkload>& running) {
  for (const AdmittedWorkload& w : running) {
    c.quota.add_usage(w.team, w.flavor, w.usage());
    for (size_t s = 0; s < w.assignment.size(); ++s) {
      for (const PodPlacement& pod : w.assignment[s].pods) {
        c.capacity.hold(pod.node, w.pod_sets[s].per_pod, pod.gpu_mask);
      }
    }
  }
}

struct HeapCount {
  int searches = 0;
  int preempting = 0;
  int refused = 0;
  int64_t heap_rounds = 0;
  int multi_victim = 0;
};

void compare_heaps_with_walk(uint64_t seed, HeapCount* count) {
  std::mt19937_64 rng(seed);
  const Policy p = random_heap_policy(rng);
  auto policy = std::make_shared<const CompiledPolicy>(
      CompiledPolicy::compile(p, expand_node_pools(p)).value());
  const Topology topology(*policy);
  uint64_t next_id = 1;
  const std::vector<AdmittedWorkload> running = fill_tree(rng, *policy, &next_id);
  if (running.empty()) return;
  const Timestamp now = Timestamp() + Duration::seconds(600);
  HeapCluster heaps{QuotaTree(*policy), CapacityIndex(*policy, topology, {})};
  HeapCluster walk{QuotaTree(*policy), CapacityIndex(*policy, topology, {})};
  hold_running(heaps, running);
  hold_running(walk, running);
  std::vector<bool> unavailable(running.size(), false);  // both selectors read it
  VictimSelector with_heaps(heaps.quota, heaps.capacity, running, unavailable, now);
  VictimSelector with_walk(walk.quota, walk.capacity, running, unavailable, now);
  with_walk.use_share_heaps(false);
  for (int i = 0; i < 16; ++i) {
    const PendingWorkload w = random_tree_work(rng, *policy, next_id++, now, true);
    const ResourceVector total = w.pod_sets[0].per_pod * w.pod_sets[0].count;
    const std::vector<int32_t> counts{w.pod_sets[0].count};
    const VictimChoice a = with_heaps.find(w, FlavorIndex(0), total, counts);
    const VictimChoice b = with_walk.find(w, FlavorIndex(0), total, counts);
    ++count->searches;
    ASSERT_EQ(a.verdict, b.verdict) << "seed " << seed << " search " << i;
    ASSERT_EQ(a.victims, b.victims) << "seed " << seed << " search " << i;
    ASSERT_EQ(a.within_nominal, b.within_nominal) << "seed " << seed << " search " << i;
    count->refused += a.verdict == PreemptionVerdict::kFairShareRefused ? 1 : 0;
    if (a.verdict != PreemptionVerdict::kPreempting) continue;
    ++count->preempting;
    count->multi_victim += a.victims.size() > 1 ? 1 : 0;
    const bool stop_at_once = rng() % 2 == 0;
    for (const auto& [index, reason] : a.victims) {
      unavailable[index] = true;
      if (stop_at_once) {
        with_heaps.release(index);
        with_walk.release(index);
      }
    }
  }
  count->heap_rounds += with_heaps.heap_rounds();
  EXPECT_EQ(with_walk.heap_rounds(), 0);
}

TEST(VictimSelectorProperties, FairShareHeapsAnswerAsTheWalk) {
  HeapCount count;
  for (uint64_t seed = 7000; seed < 7200; ++seed) {
    compare_heaps_with_walk(seed, &count);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // Not vacuous: searches that preempt (several victims too), that the share
  // rule refuses, and many rounds answered by kept heaps.
  EXPECT_GT(count.preempting, 300) << count.searches << " searches";
  EXPECT_GT(count.multi_victim, 50) << count.searches << " searches";
  EXPECT_GT(count.refused, 50) << count.searches << " searches";
  EXPECT_GT(count.heap_rounds, 2000) << count.searches << " searches";
}

}  // namespace
}  // namespace allot
