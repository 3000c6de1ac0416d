// KeptPendingQueues (service/control/kept_pending_queues.h), the admission
// loop's team queues kept between cycles, against queues built from scratch
// and the plans made from them against the plain path, over random sequences
// of pending vectors: arrivals, departures, admissions and requeues, changes
// in place (priority, queue time, pod sets, a pinned flavor, an endpoint's
// guarantee, the team), policy changes (a team's flavors reordered, a team
// added or removed) and the policy object freed and replaced, and snapshots
// refreshed without their plan carried out (a stale plan made again).
#include "service/control/kept_pending_queues.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "../scheduler/identical_plans.h"
#include "../scheduler/policy_builders.h"
#include "model/node_inventory.h"
#include "scheduler/pending_queues.h"
#include "scheduler/scheduler.h"

namespace allot {
namespace {

// What the random policy changes vary: the team count and each team's
// flavor order.
struct PolicyShape {
  int teams = 4;
  std::vector<bool> reversed = std::vector<bool>(5, false);
};

// 2 flavors x 8 nodes x 8 GPUs; up to 5 teams in one cohort, even ones StrictFIFO.
Policy shaped_policy(const PolicyShape& shape) {
  Policy p;
  p.clusters.push_back({});
  p.clusters[0].meta.name = "main";
  for (const char* f : {"a", "b"}) testing::add_gpu_pool(p, f, std::string("pool-") + f);
  Cohort root;
  root.meta.name = "root";
  p.cohorts = {root};
  for (int i = 0; i < 3; ++i) {
    PriorityClass pc;
    pc.meta.name = "p" + std::to_string(i);
    pc.value = i * 100;
    pc.preemption_grace_period = Duration::seconds(i == 1 ? 20 : 0);
    p.priority_classes.push_back(pc);
  }
  for (int t = 0; t < shape.teams; ++t) {
    Team team;
    team.meta.name = "t" + std::to_string(t);
    team.namespace_name = team.meta.name;
    team.cohort = "root";
    team.quota = {testing::gpu_quota("a", 8 + 8 * (t % 2), 8), testing::gpu_quota("b", 4, 8)};
    if (shape.reversed[t]) std::reverse(team.quota.begin(), team.quota.end());
    team.preemption.reclaim_within_cohort = ReclaimPolicy::kAny;
    team.preemption.within_team = WithinTeamPolicy::kLowerPriority;
    if (t % 2 == 0) team.queueing = QueueingStrategy::kStrictFifo;
    p.teams.push_back(team);
  }
  return p;
}

std::shared_ptr<const Scheduler> scheduler_for(const PolicyShape& shape) {
  const Policy p = shaped_policy(shape);
  return std::make_shared<const Scheduler>(std::make_shared<const CompiledPolicy>(
      CompiledPolicy::compile(p, expand_node_pools(p)).value()));
}

PodSetRequest random_pod_set(std::mt19937_64& rng) {
  static constexpr int64_t kGpus[] = {1, 2, 4, 8};
  PodSetRequest set;
  set.per_pod = ResourceVector(kGpus[rng() % 4], 1000, 0);
  set.count = static_cast<int32_t>(1 + rng() % 3);
  set.min_count = rng() % 4 == 0 ? 1 : set.count;
  if (rng() % 8 == 0) set.required_flavor = FlavorIndex(static_cast<uint16_t>(rng() % 2));
  return set;
}

void set_priority(std::mt19937_64& rng, const CompiledPolicy& policy, PendingWorkload& w) {
  w.priority_class = PriorityClassIndex(static_cast<uint16_t>(rng() % 3));
  w.priority = policy.priority_class(w.priority_class).value;
}

PendingWorkload random_workload(std::mt19937_64& rng, const CompiledPolicy& policy, uint64_t id,
                                Timestamp now) {
  PendingWorkload w;
  w.id = WorkloadId(id);
  w.team = TeamIndex(static_cast<uint32_t>(rng() % policy.team_count()));
  set_priority(rng, policy, w);
  w.queued_at = now - Duration::seconds(static_cast<int64_t>(rng() % 4) * 20);
  w.pod_sets = {random_pod_set(rng)};
  if (rng() % 2 == 0) w.max_runtime = Duration::seconds(static_cast<int64_t>(60 + rng() % 600));
  return w;
}

// One change in place of a pending workload, of the kinds the facts hold.
void change_in_place(std::mt19937_64& rng, const CompiledPolicy& policy, Timestamp now,
                     PendingWorkload& w) {
  switch (rng() % 6) {
    case 0: set_priority(rng, policy, w); break;
    case 1: w.queued_at = now - Duration::seconds(static_cast<int64_t>(rng() % 600)); break;
    case 2: w.pod_sets[0] = random_pod_set(rng); break;
    case 3: w.pod_sets.push_back(random_pod_set(rng)); break;
    case 4: w.replica_role = w.guaranteed() ? ReplicaRole::kNone : ReplicaRole::kGuaranteed; break;
    default: w.team = TeamIndex(static_cast<uint32_t>(rng() % policy.team_count())); break;
  }
}

struct World {
  Snapshot state;
  PolicyShape shape;
  std::shared_ptr<const Scheduler> scheduler;
  uint64_t next_id = 1;

  void sort_pending() {
    std::sort(state.pending.begin(), state.pending.end(),
              [](const PendingWorkload& a, const PendingWorkload& b) { return a.id < b.id; });
  }
};

// Evicted and stopped work is requeued, victims stop (at once without a grace
// period, else at the next plan), admissions start.
void carry_out(World& world, const Plan& plan) {
  Snapshot& s = world.state;
  std::vector<AdmittedWorkload> running;
  for (AdmittedWorkload& a : s.admitted) {
    const bool evicted = std::any_of(plan.evictions.begin(), plan.evictions.end(),
                                     [&](const Eviction& e) { return e.workload == a.id; });
    const auto p = std::find_if(plan.preemptions.begin(), plan.preemptions.end(),
                                [&](const Preemption& x) { return x.victim == a.id; });
    if (p != plan.preemptions.end()) {
      a.terminating = true;
      a.preempted_for = p->beneficiary;
    }
    if (evicted || (a.terminating && (p == plan.preemptions.end() || p->grace_period.ms() == 0))) {
      s.pending.push_back(requeued_from(a));
      continue;
    }
    running.push_back(a);
  }
  for (const Admission& adm : plan.admissions) {
    const auto it = std::find_if(s.pending.begin(), s.pending.end(),
                                 [&](const PendingWorkload& w) { return w.id == adm.workload; });
    running.push_back(admitted_from(*it, adm.flavor, adm.assignment, s.now));
    s.pending.erase(it);
  }
  s.admitted = std::move(running);
  world.sort_pending();
}

// A policy change, or the policy object freed and another made from the same
// document; returns whether the new policy is at the freed one's address.
bool change_policy(World& world, std::mt19937_64& rng) {
  PolicyShape& shape = world.shape;
  const bool replaced = rng() % 3 == 0;  // the same shape again, or one changed
  if (!replaced) {
    if (rng() % 2 == 0) {
      shape.teams = shape.teams == 4 ? 5 : 4;
    } else {
      const size_t t = rng() % static_cast<size_t>(shape.teams);
      shape.reversed[t] = !shape.reversed[t];
    }
  }
  // A removed team's work is gone from its queue: it is moved to team 0.
  for (PendingWorkload& w : world.state.pending) {
    if (static_cast<int>(w.team.value()) >= shape.teams) w.team = TeamIndex(0);
  }
  world.state.admitted.erase(
      std::remove_if(world.state.admitted.begin(), world.state.admitted.end(),
                     [&](const AdmittedWorkload& a) {
                       return static_cast<int>(a.team.value()) >= shape.teams;
                     }),
      world.state.admitted.end());
  const CompiledPolicy* old = &world.scheduler->policy();
  // The kept queues' hold is the last one: without it the new policy is
  // allocated at the old one's address (as a rule, in a debug build).
  world.scheduler.reset();
  world.scheduler = scheduler_for(shape);
  return &world.scheduler->policy() == old;
}

// The world's changes between two refreshes, other than the plan's own.
void change_world(World& world, std::mt19937_64& rng) {
  Snapshot& s = world.state;
  const CompiledPolicy& policy = world.scheduler->policy();
  s.now = s.now + Duration::seconds(15);
  for (int i = static_cast<int>(rng() % (rng() % 12 == 0 ? 60 : 6)); i > 0; --i) {
    s.pending.push_back(random_workload(rng, policy, world.next_id++, s.now));
  }
  if (!s.admitted.empty() && rng() % 2 == 0) {  // a completion
    s.admitted.erase(s.admitted.begin() + static_cast<std::ptrdiff_t>(rng() % s.admitted.size()));
  }
  for (int i = static_cast<int>(rng() % 3); i > 0 && !s.pending.empty(); --i) {  // withdrawals
    s.pending.erase(s.pending.begin() + static_cast<std::ptrdiff_t>(rng() % s.pending.size()));
  }
  for (int i = static_cast<int>(rng() % 4); i > 0 && !s.pending.empty(); --i) {
    change_in_place(rng, policy, s.now, s.pending[rng() % s.pending.size()]);
  }
  world.sort_pending();
}

struct Counts {
  int refreshes = 0;
  int policy_changes = 0;
  int addresses_reused = 0;
  int stale_retries = 0;
  int max_pending = 0;
};

void run_world(uint64_t seed, KeptPendingQueues& kept, Counts& counts) {
  std::mt19937_64 rng(seed);
  World world;
  world.scheduler = scheduler_for(world.shape);
  world.state.nodes.assign(world.scheduler->policy().node_count(), NodeCondition{});
  for (int step = 0; step < 80; ++step) {
    if (rng() % 15 == 0) {  // before the changes: newcomers may join a new team
      ++counts.policy_changes;
      counts.addresses_reused += change_policy(world, rng) ? 1 : 0;
    }
    change_world(world, rng);
    const std::vector<PendingWorkload>& pending = world.state.pending;
    counts.max_pending = std::max(counts.max_pending, static_cast<int>(pending.size()));
    ++counts.refreshes;
    const PendingQueues& queues = kept.refresh(world.scheduler, pending);
    const CompiledPolicy& policy = world.scheduler->policy();
    ASSERT_TRUE(queues == PendingQueues(policy, pending))
        << "seed " << seed << " step " << step << ": kept queues differ from a rebuild";
    const Plan plan = world.scheduler->plan(world.state, queues);
    testing::expect_identical_plans(plan, world.scheduler->plan(world.state), seed, step);
    if (::testing::Test::HasFailure()) return;
    // A stale plan: dropped, the next refresh is of a newer snapshot.
    if (rng() % 5 == 0) {
      ++counts.stale_retries;
      continue;
    }
    carry_out(world, plan);
  }
}

TEST(KeptPendingQueuesProperties, RefreshedQueuesEqualARebuildAndPlanAlike) {
  KeptPendingQueues kept;
  Counts counts;
  for (uint64_t seed = 4300; seed < 4340; ++seed) {
    run_world(seed, kept, counts);  // one kept object across worlds: each starts a new policy
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(counts.refreshes, 40 * 80);
  EXPECT_GT(kept.updates(), counts.refreshes / 2) << "the worlds rarely updated in place";
  EXPECT_GT(counts.policy_changes, 100);
  EXPECT_GT(counts.stale_retries, counts.refreshes / 10);
  EXPECT_GT(counts.max_pending, 100) << "the worlds never built a backlog";
  std::printf(
      "kept queues: %d refreshes, %lld updated in place, %lld rebuilt, %d policy "
      "changes (%d at the replaced policy's address), largest backlog %d\n",
      counts.refreshes, static_cast<long long>(kept.updates()),
      static_cast<long long>(kept.rebuilds()), counts.policy_changes, counts.addresses_reused,
      counts.max_pending);
}

}  // namespace
}  // namespace allot
