// PendingQueues kept between cycles (scheduler/pending_queues.h) against a
// rebuild from scratch, and the plans made from them against the plain path,
// after every cycle of random worlds: arrivals, admissions, preemptions and
// evictions (requeued at their place), withdrawals, workloads moved in their
// queue, node failures and policy changes.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "identical_plans.h"
#include "model/node_inventory.h"
#include "policy_builders.h"
#include "scheduler/blocked_tails.h"
#include "scheduler/pending_queues.h"
#include "scheduler/release_timeline.h"
#include "scheduler/reservation_steps.h"
#include "scheduler/scheduler.h"
#include "scheduler/scheduling_cycle.h"
#include "scheduler/topology.h"

namespace allot {
namespace {

// 2 flavors x 8 nodes x 8 GPUs; 4 teams in one cohort, t0 and t2 StrictFIFO.
Policy kept_queues_policy(std::mt19937_64& rng, bool fair_sharing) {
  Policy p;
  p.clusters.push_back({});
  p.clusters[0].meta.name = "main";
  p.clusters[0].scheduling.fair_sharing = fair_sharing;
  for (const char* f : {"a", "b"}) testing::add_gpu_pool(p, f, std::string("pool-") + f);
  Cohort root;
  root.meta.name = "root";
  p.cohorts = {root};
  for (int i = 0; i < 3; ++i) {
    PriorityClass pc;
    pc.meta.name = "p" + std::to_string(i);
    pc.value = i * 100;
    pc.preemption_grace_period = Duration::seconds(static_cast<int64_t>(rng() % 2) * 20);
    p.priority_classes.push_back(pc);
  }
  for (int t = 0; t < 4; ++t) {
    Team team;
    team.meta.name = "t" + std::to_string(t);
    team.namespace_name = team.meta.name;
    team.cohort = "root";
    const int64_t nominal = 8 * static_cast<int64_t>(1 + rng() % 2);
    std::optional<int64_t> borrow;
    if (rng() % 2 == 0) borrow = 8 * static_cast<int64_t>(rng() % 3);
    team.quota = {testing::gpu_quota("a", nominal, borrow, std::nullopt),
                  testing::gpu_quota("b", nominal / 2, borrow, std::nullopt)};
    team.preemption.reclaim_within_cohort = ReclaimPolicy::kAny;
    team.preemption.within_team = WithinTeamPolicy::kLowerPriority;
    if (t % 2 == 0) team.queueing = QueueingStrategy::kStrictFifo;
    p.teams.push_back(team);
  }
  return p;
}

std::shared_ptr<const CompiledPolicy> compile_kept_queues_policy(const Policy& p) {
  return std::make_shared<const CompiledPolicy>(
      CompiledPolicy::compile(p, expand_node_pools(p)).value());
}

PendingWorkload kept_queues_workload(std::mt19937_64& rng, const CompiledPolicy& policy,
                                     uint64_t id, Timestamp now) {
  PendingWorkload w;
  w.id = WorkloadId(id);
  w.team = TeamIndex(static_cast<uint32_t>(rng() % policy.team_count()));
  w.priority_class = PriorityClassIndex(static_cast<uint16_t>(rng() % 3));
  w.priority = policy.priority_class(w.priority_class).value;
  // Some arrive with an earlier place in the queue (a requeue, a resumed Space).
  w.queued_at = now - Duration::seconds(static_cast<int64_t>(rng() % 4) * 20);
  PodSetRequest set;
  static constexpr int64_t kSizes[] = {1, 2, 4, 8};
  set.per_pod = ResourceVector(kSizes[rng() % 4], 1000, 0);
  set.count = static_cast<int32_t>(1 + rng() % 3);
  set.min_count = set.count;
  if (rng() % 8 == 0) set.required_flavor = FlavorIndex(static_cast<uint16_t>(rng() % 2));
  w.pod_sets = {set};
  if (rng() % 2 == 0) w.max_runtime = Duration::seconds(static_cast<int64_t>(60 + rng() % 600));
  return w;
}

// Few shapes, so that a team's queue holds many workloads that ask the same
// (what AdmissionMemo answers from memory): 1 or 8 GPUs, 1 or 2 pods, some
// admissible in part, a declared runtime of none or 300 s.
PendingWorkload repeating_shape_workload(std::mt19937_64& rng, const CompiledPolicy& policy,
                                         uint64_t id, Timestamp now) {
  PendingWorkload w = kept_queues_workload(rng, policy, id, now);
  PodSetRequest& set = w.pod_sets[0];
  set.per_pod = ResourceVector(rng() % 2 == 0 ? 1 : 8, 1000, 0);
  set.count = static_cast<int32_t>(1 + rng() % 2);
  set.min_count = rng() % 4 == 0 ? 1 : set.count;
  w.max_runtime = rng() % 2 == 0 ? Duration::max() : Duration::seconds(300);
  return w;
}

struct KeptQueuesWorld {
  Snapshot state;
  std::vector<WorkloadId> touched;  // since the last plan

  void sort_pending() {
    std::sort(state.pending.begin(), state.pending.end(),
              [](const PendingWorkload& a, const PendingWorkload& b) { return a.id < b.id; });
  }
  void requeue(const AdmittedWorkload& a) {
    touched.push_back(a.id);
    state.pending.push_back(requeued_from(a));
  }
};

// Carries the plan out: evicted and stopped work is requeued, victims stop
// (at once without a grace period, else at the next cycle), admissions start.
void carry_out_kept_queues_plan(KeptQueuesWorld& world, const Plan& plan) {
  Snapshot& s = world.state;
  std::vector<AdmittedWorkload> running;
  for (AdmittedWorkload& a : s.admitted) {
    const bool evicted = std::any_of(plan.evictions.begin(), plan.evictions.end(),
                                     [&](const Eviction& e) { return e.workload == a.id; });
    if (a.terminating || evicted) {
      world.requeue(a);
      continue;
    }
    const auto p = std::find_if(plan.preemptions.begin(), plan.preemptions.end(),
                                [&](const Preemption& x) { return x.victim == a.id; });
    if (p != plan.preemptions.end()) {
      a.terminating = true;
      a.preempted_for = p->beneficiary;
      if (p->grace_period.ms() == 0) {
        world.requeue(a);
        continue;
      }
    }
    running.push_back(a);
  }
  for (const Admission& adm : plan.admissions) {
    const auto it = std::find_if(s.pending.begin(), s.pending.end(),
                                 [&](const PendingWorkload& w) { return w.id == adm.workload; });
    running.push_back(admitted_from(*it, adm.flavor, adm.assignment, s.now));
    world.touched.push_back(adm.workload);
    s.pending.erase(it);
  }
  s.admitted = std::move(running);
  world.sort_pending();
}

// The world's changes between two plans, other than the plan's own.
void change_kept_queues_world(KeptQueuesWorld& world, std::mt19937_64& rng,
                              const CompiledPolicy& policy, uint64_t& next_id,
                              bool repeating_shapes = false) {
  Snapshot& s = world.state;
  s.now = s.now + Duration::seconds(15);
  for (int i = static_cast<int>(rng() % (rng() % 12 == 0 ? 40 : 5)); i > 0; --i) {
    s.pending.push_back(repeating_shapes ? repeating_shape_workload(rng, policy, next_id, s.now)
                                         : kept_queues_workload(rng, policy, next_id, s.now));
    world.touched.push_back(WorkloadId(next_id++));
  }
  if (!s.admitted.empty() && rng() % 2 == 0) {  // a completion
    s.admitted.erase(s.admitted.begin() + static_cast<std::ptrdiff_t>(rng() % s.admitted.size()));
  }
  if (!s.pending.empty() && rng() % 4 == 0) {  // a withdrawal
    const auto at = s.pending.begin() + static_cast<std::ptrdiff_t>(rng() % s.pending.size());
    world.touched.push_back(at->id);
    s.pending.erase(at);
  }
  if (!s.pending.empty() && rng() % 4 == 0) {  // moved in its queue
    PendingWorkload& w = s.pending[rng() % s.pending.size()];
    w.queued_at = s.now - Duration::seconds(static_cast<int64_t>(rng() % 600));
    w.priority = policy.priority_class(PriorityClassIndex(static_cast<uint16_t>(rng() % 3))).value;
    world.touched.push_back(w.id);
  }
  if (rng() % 10 == 0) {  // a node fails or recovers
    auto& node = s.nodes[rng() % s.nodes.size()];
    node.healthy = !node.healthy;
  }
  world.sort_pending();
}

struct KeptQueuesCounts {
  int cycles = 0;
  int incremental = 0;  // cycles whose changes were few enough for an update in place
  int max_pending = 0;
};

void run_kept_queues_world(uint64_t seed, bool fair_sharing, KeptQueuesCounts& counts) {
  std::mt19937_64 rng(seed);
  Policy document = kept_queues_policy(rng, fair_sharing);
  auto policy = compile_kept_queues_policy(document);
  auto scheduler = std::make_unique<Scheduler>(policy);
  KeptQueuesWorld world;
  world.state.nodes.assign(policy->node_count(), NodeCondition{});
  PendingQueues kept;
  uint64_t next_id = 1;
  for (int step = 0; step < 60; ++step) {
    change_kept_queues_world(world, rng, *policy, next_id);
    if (rng() % 20 == 0) {  // a policy change: one team's flavors in the other order
      auto& quota = document.teams[rng() % document.teams.size()].quota;
      std::reverse(quota.begin(), quota.end());
      policy = compile_kept_queues_policy(document);
      scheduler = std::make_unique<Scheduler>(policy);
    }
    const std::vector<PendingWorkload>& pending = world.state.pending;
    counts.incremental += world.touched.size() * 4 <= pending.size() ? 1 : 0;
    counts.max_pending = std::max(counts.max_pending, static_cast<int>(pending.size()));
    ++counts.cycles;
    kept.update(*policy, pending, std::move(world.touched));
    world.touched.clear();
    const PendingQueues rebuilt(*policy, pending);
    ASSERT_TRUE(kept == rebuilt) << "seed " << seed << " step " << step
                                 << ": kept queues and facts differ from a rebuild";
    ASSERT_TRUE(kept.matches(*policy, pending));
    const Plan plan = scheduler->plan(world.state, kept);
    testing::expect_identical_plans(plan, scheduler->plan(world.state), seed, step);
    if (::testing::Test::HasFailure()) return;
    carry_out_kept_queues_plan(world, plan);
  }
}

TEST(PendingQueuesProperties, KeptQueuesEqualARebuildAndPlanAlike) {
  KeptQueuesCounts counts;
  for (uint64_t seed = 900; seed <= 939; ++seed) {
    run_kept_queues_world(seed, seed % 2 == 0, counts);
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(counts.cycles, 40 * 60);
  EXPECT_GT(counts.incremental, counts.cycles / 2) << "the worlds rarely updated in place";
  EXPECT_GT(counts.max_pending, 100) << "the worlds never built a backlog";
}

// AdmissionMemo (scheduler/admission_memo.h): the plan made with remembered
// admission failures equals the plan made with every attempt run in full,
// over random worlds of few shapes whose reservations carry over. The same
// worlds check ReservationSteps (scheduler/reservation_steps.h): node steps
// kept per shape give the plan of steps built for every gang.
struct AdmissionMemoCounts {
  int cycles = 0;
  int with_reservations = 0;
  int max_pending = 0;
  int64_t memo_answers = 0;
  int64_t steps_reused = 0;
  int64_t released_reused = 0;  // ReservedQuota starts read from the kept released quota
  int64_t tails_named = 0;      // blocked tails named once, and their workloads
  int64_t tail_workloads = 0;
};

// `full_path`: the options of the plan that every cycle's plan (made with
// `tested`, default options unless given) must equal; a plan that names
// blocked tails once has them explained (expand_blocked_tails) first.
void run_admission_memo_world(uint64_t seed, bool fair_sharing, const SchedulerOptions& full_path,
                              AdmissionMemoCounts& counts, const SchedulerOptions& tested = {}) {
  std::mt19937_64 rng(seed);
  auto policy = compile_kept_queues_policy(kept_queues_policy(rng, fair_sharing));
  const Topology topology(*policy);
  const Scheduler forgetting(policy, full_path);
  const SchedulerOptions& remembering_options = tested;  // outlives each cycle (kept by reference)
  KeptQueuesWorld world;
  world.state.nodes.assign(policy->node_count(), NodeCondition{});
  uint64_t next_id = 1;
  for (int step = 0; step < 60; ++step) {
    change_kept_queues_world(world, rng, *policy, next_id, /*repeating_shapes=*/true);
    world.touched.clear();
    counts.max_pending = std::max(counts.max_pending, static_cast<int>(world.state.pending.size()));
    ++counts.cycles;
    SchedulingCycle remembering(*policy, topology, remembering_options, world.state);
    Plan plan = remembering.run();
    counts.memo_answers += remembering.admission_memo_answers();
    counts.steps_reused += remembering.reservation_steps_reused();
    counts.released_reused += remembering.released_quota_reused();
    if (!plan.blocked_tails.empty()) {
      const size_t explained = plan.explanations.size();
      counts.tails_named += static_cast<int64_t>(plan.blocked_tails.size());
      expand_blocked_tails(plan, PendingQueues(*policy, world.state.pending));
      counts.tail_workloads += static_cast<int64_t>(plan.explanations.size() - explained);
    }
    EXPECT_TRUE(plan.blocked_tails.empty());
    testing::expect_identical_plans(plan, forgetting.plan(world.state), seed, step);
    if (::testing::Test::HasFailure()) return;
    counts.with_reservations += plan.reservations.empty() ? 0 : 1;
    world.state.reservations.clear();
    for (const Reservation& r : plan.reservations) {
      world.state.reservations.push_back({r.workload, r.nodes, r.starts_at});
    }
    carry_out_kept_queues_plan(world, plan);
  }
}

TEST(AdmissionMemoProperties, RememberedFailuresPlanAsTheFullPath) {
  SchedulerOptions full_path;
  full_path.remember_admission_failures = false;
  AdmissionMemoCounts counts;
  for (uint64_t seed = 1200; seed <= 1239; ++seed) {
    run_admission_memo_world(seed, seed % 2 == 0, full_path, counts);
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(counts.cycles, 40 * 60);
  EXPECT_GT(counts.with_reservations, counts.cycles / 10) << "the worlds rarely reserved";
  EXPECT_GT(counts.max_pending, 100) << "the worlds never built a backlog";
  EXPECT_GT(counts.memo_answers, counts.cycles)
      << "the memo rarely answered: " << counts.memo_answers;
}

TEST(ReservationStepsProperties, KeptStepsPlanAsStepsBuiltPerGang) {
  SchedulerOptions full_path;
  full_path.reuse_reservation_steps = false;
  AdmissionMemoCounts counts;
  for (uint64_t seed = 1300; seed <= 1339; ++seed) {
    run_admission_memo_world(seed, seed % 2 == 0, full_path, counts);
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(counts.cycles, 40 * 60);
  EXPECT_GT(counts.with_reservations, counts.cycles / 10) << "the worlds rarely reserved";
  EXPECT_GT(counts.steps_reused, counts.cycles / 10)
      << "kept steps rarely answered: " << counts.steps_reused;
}

// ReleasedQuota (scheduler/released_quota.h): each flavor's quota at a
// reserved gang's start, kept and moved release by release between gangs,
// gives the plan of the quota built for every gang.
TEST(ReleasedQuotaProperties, KeptReleasedQuotaPlansAsQuotaBuiltPerGang) {
  SchedulerOptions full_path;
  full_path.reuse_released_quota = false;
  AdmissionMemoCounts counts;
  for (uint64_t seed = 1500; seed <= 1539; ++seed) {
    run_admission_memo_world(seed, seed % 2 == 0, full_path, counts);
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(counts.cycles, 40 * 60);
  EXPECT_GT(counts.with_reservations, counts.cycles / 10) << "the worlds rarely reserved";
  EXPECT_GT(counts.released_reused, counts.cycles / 10)
      << "the kept released quota rarely answered: " << counts.released_reused;
}

// Blocked StrictFIFO tails named once (SchedulerOptions::explain_blocked_tails
// off, as a trace replay plans) and explained again by expand_blocked_tails():
// every field of the plan equals the plan that explains each workload of the
// tail (estimated starts off in both: a tail named once has none).
TEST(BlockedTailsProperties, TailsNamedOnceExpandToThePlanThatExplainsThem) {
  SchedulerOptions full_path;
  full_path.estimate_start_times = false;
  SchedulerOptions tested = full_path;
  tested.explain_blocked_tails = false;
  AdmissionMemoCounts counts;
  for (uint64_t seed = 1400; seed <= 1439; ++seed) {
    run_admission_memo_world(seed, seed % 2 == 0, full_path, counts, tested);
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(counts.cycles, 40 * 60);
  EXPECT_GT(counts.tails_named, counts.cycles / 2) << "the worlds rarely blocked a tail";
  EXPECT_GT(counts.tail_workloads, 20 * counts.tails_named) << "the tails were short";
}

// ShapeSteps (scheduler/reservation_steps.h), read from each flavor's kept
// free capacity over time, against append_node_steps() of every node of the
// flavor (the reservation planner's steps before they were kept): the same
// nodes, in the same order, with the same steps, for shapes of 1 to 8 GPUs
// and 1 to 9 pods, on the admitted work of random worlds (declared runtimes
// or none, some nodes failed). 48 shapes a world, most asked again, many
// flavors' shapes interleaved: steps kept per flavor (up to 32 shapes each,
// the oldest dropped) must be the steps of the shape asked.
void compare_shape_steps(const Snapshot& state, const CompiledPolicy& policy,
                         const Topology& topology, std::mt19937_64& rng, int64_t* steps_seen,
                         int64_t* reused) {
  CapacityIndex capacity(policy, topology, state.nodes);
  for (const AdmittedWorkload& w : state.admitted) {
    for (size_t s = 0; s < w.assignment.size(); ++s) {
      for (const PodPlacement& pod : w.assignment[s].pods) {
        capacity.hold(pod.node, w.pod_sets[s].per_pod, pod.gpu_mask);
      }
    }
  }
  const ReleaseTimeline timeline(state.admitted, policy.flavor_count(), policy.node_count(),
                                 state.now);
  ReservationSteps kept;
  for (int shape = 0; shape < 48; ++shape) {
    const FlavorIndex flavor(static_cast<uint16_t>(rng() % policy.flavor_count()));
    static constexpr int64_t kGpus[] = {1, 2, 4, 8};
    const ResourceVector per_pod(kGpus[rng() % 4], static_cast<int64_t>(rng() % 3) * 1000, 0);
    const auto pods = static_cast<int32_t>(1 + rng() % 9);
    const ShapeSteps& steps = kept.of(capacity, timeline, flavor, per_pod, pods, state.now);
    size_t c = 0;
    for (NodeIndex node : topology.nodes_of_flavor(flavor)) {
      if (!capacity.schedulable(node) || !per_pod.fits_in(policy.node(node).node.capacity)) {
        continue;
      }
      std::vector<NodeStep> own;
      append_node_steps(capacity, timeline, node, per_pod, pods, state.now, own);
      if (own.empty()) continue;
      ASSERT_LT(c, steps.size()) << "node " << node.value() << " missing";
      ASSERT_EQ(steps.node(c), node);
      ASSERT_EQ(steps.steps(c).size(), own.size()) << "node " << node.value();
      for (size_t k = 0; k < own.size(); ++k) {
        EXPECT_EQ(steps.steps(c)[k].at, own[k].at) << "node " << node.value() << " step " << k;
        EXPECT_EQ(steps.steps(c)[k].pods, own[k].pods) << "node " << node.value() << " step " << k;
      }
      *steps_seen += static_cast<int64_t>(own.size());
      ++c;
    }
    EXPECT_EQ(c, steps.size()) << "nodes without steps kept";
    // The changes are every step's gain, in time order.
    int64_t gained = 0;
    for (size_t k = 0; k < steps.changes().size(); ++k) {
      EXPECT_GT(steps.changes()[k].delta, 0);
      if (k > 0) {
        EXPECT_LE(steps.changes()[k - 1].at, steps.changes()[k].at);
      }
      gained += steps.changes()[k].delta;
    }
    int64_t final_pods = 0;
    for (size_t n = 0; n < steps.size(); ++n) final_pods += steps.steps(n).back().pods;
    EXPECT_EQ(gained, final_pods);
  }
  *reused += kept.reused();
}

TEST(ReservationStepsProperties, ShapeStepsEqualEachNodesOwnSteps) {
  int64_t steps_seen = 0;
  int64_t reused = 0;
  for (uint64_t seed = 1400; seed <= 1419; ++seed) {
    std::mt19937_64 rng(seed);
    auto policy = compile_kept_queues_policy(kept_queues_policy(rng, seed % 2 == 0));
    const Scheduler scheduler(policy);
    const Topology topology(*policy);
    KeptQueuesWorld world;
    world.state.nodes.assign(policy->node_count(), NodeCondition{});
    uint64_t next_id = 1;
    for (int step = 0; step < 30; ++step) {
      change_kept_queues_world(world, rng, *policy, next_id);
      world.touched.clear();
      compare_shape_steps(world.state, *policy, topology, rng, &steps_seen, &reused);
      if (::testing::Test::HasFatalFailure()) return;
      carry_out_kept_queues_plan(world, scheduler.plan(world.state));
    }
  }
  EXPECT_GT(steps_seen, 10'000) << "the worlds rarely had nodes with steps";
  EXPECT_GT(reused, 2'000) << "kept steps rarely answered";
  std::printf("shape steps: %lld steps seen, %lld answers from kept steps\n",
              static_cast<long long>(steps_seen), static_cast<long long>(reused));
}

}  // namespace
}  // namespace allot
