// Property tests of the victim search over random cohort trees and running
// work: every victim set that VictimSelector returns makes the preemptor fit,
// is minimal (sparing any one victim makes it not fit), takes only work the
// policy allows, and leaves the quota tree and node capacity as it found them.
#include <cstdio>
#include <random>

#include <gtest/gtest.h>

#include "model/node_inventory.h"
#include "policy_builders.h"
#include "scheduler/capacity_index.h"
#include "scheduler/gang_placer.h"
#include "scheduler/quota_tree.h"
#include "scheduler/scheduler.h"
#include "scheduler/topology.h"
#include "scheduler/victim_selector.h"
#include "snapshot_builders.h"

namespace allot {
namespace {

std::optional<int64_t> maybe(std::mt19937_64& rng, int64_t most) {
  if (rng() % 2 == 0) return std::nullopt;
  return 4 * static_cast<int64_t>(rng() % static_cast<uint64_t>(most / 4 + 1));
}

// One flavor, 8 nodes x 8 GPUs; a root cohort and a nested one, each with an
// own pool at random; 5 teams with random limits and preemption policies.
Policy random_victim_policy(std::mt19937_64& rng, bool fair_sharing) {
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

PendingWorkload random_workload(std::mt19937_64& rng, const CompiledPolicy& policy, uint64_t id,
                                Timestamp now) {
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
std::vector<AdmittedWorkload> random_running(std::mt19937_64& rng, const CompiledPolicy& policy,
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

void hold_all(Cluster& c, const std::vector<AdmittedWorkload>& running,
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
bool fits(Cluster& c, const PendingWorkload& w, const ResourceVector& total, bool within_nominal) {
  const FlavorIndex flavor(0);
  if (!c.quota.fits(w.team, flavor, total)) return false;
  if (within_nominal && c.quota.would_borrow(w.team, flavor, total)) return false;
  const std::vector<int32_t> counts{w.pod_sets[0].count};
  return GangPlacer(c.capacity)
      .place({w.id, flavor, w.pod_sets, counts, Timestamp::infinite_future()})
      .has_value();
}

struct Outcome {
  int searches = 0;
  int preempting = 0;
  int64_t gang_walks = 0;  // searches answered by the gang node-first walk
};

void check_one_search(const CompiledPolicy& policy, const Topology& topology,
                      const std::vector<AdmittedWorkload>& running, const PendingWorkload& w,
                      uint64_t seed, Outcome* outcome) {
  const ResourceVector total = w.pod_sets[0].per_pod * w.pod_sets[0].count;
  const std::vector<bool> none(running.size(), false);
  Cluster c{QuotaTree(policy), CapacityIndex(policy, topology, {})};
  hold_all(c, running, none);
  if (fits(c, w, total, false)) return;  // no preemption is needed
  ++outcome->searches;
  const int64_t avail_before = c.quota.available(policy.team(w.team).quota_node, 0);
  const ResourceVector free_before = c.capacity.flavor_free(FlavorIndex(0));
  std::vector<int64_t> usage_before;
  for (int32_t node = 0; node < policy.quota_node_count(); ++node) {
    usage_before.push_back(c.quota.usage(node, 0));
  }
  const std::vector<bool> unavailable(running.size(), false);
  VictimSelector selector(c.quota, c.capacity, running, unavailable,
                          Timestamp() + Duration::hours(1));
  const std::vector<int32_t> counts{w.pod_sets[0].count};
  const VictimChoice choice = selector.find(w, FlavorIndex(0), total, counts);
  outcome->gang_walks += selector.gang_walks_won();
  ASSERT_EQ(c.quota.available(policy.team(w.team).quota_node, 0), avail_before) << "seed " << seed;
  // The usage itself (find() puts back the availability cached before it).
  for (int32_t node = 0; node < policy.quota_node_count(); ++node) {
    ASSERT_EQ(c.quota.usage(node, 0), usage_before[node]) << "seed " << seed << " node " << node;
  }
  ASSERT_EQ(c.capacity.flavor_free(FlavorIndex(0)), free_before) << "seed " << seed;
  if (choice.verdict != PreemptionVerdict::kPreempting) {
    ASSERT_TRUE(choice.victims.empty());
    return;
  }
  ++outcome->preempting;
  ASSERT_FALSE(choice.victims.empty());
  std::vector<bool> gone(running.size(), false);
  for (const auto& [index, reason] : choice.victims) {
    ASSERT_FALSE(gone[index]) << "seed " << seed << ": a victim chosen twice";
    gone[index] = true;
    const AdmittedWorkload& v = running[index];
    if (v.team == w.team) {
      EXPECT_LT(v.priority, w.priority) << "seed " << seed << ": own-team victim not lower";
    } else {
      // Only a team above its nominal can lose work to another team.
      QuotaTree before(policy);
      for (const AdmittedWorkload& a : running) before.add_usage(a.team, a.flavor, a.usage());
      EXPECT_TRUE(before.borrowing(v.team, FlavorIndex(0)))
          << "seed " << seed << ": victim of a team within its nominal";
      EXPECT_NE(policy.team(w.team).preemption.reclaim_within_cohort, ReclaimPolicy::kNever);
    }
  }
  {  // Without the victims it fits.
    Cluster after{QuotaTree(policy), CapacityIndex(policy, topology, {})};
    hold_all(after, running, gone);
    EXPECT_TRUE(fits(after, w, total, choice.within_nominal))
        << "seed " << seed << ": the preemptor does not fit without its victims";
  }
  for (const auto& [index, reason] : choice.victims) {  // Sparing any one, it does not.
    gone[index] = false;
    Cluster spared{QuotaTree(policy), CapacityIndex(policy, topology, {})};
    hold_all(spared, running, gone);
    EXPECT_FALSE(fits(spared, w, total, choice.within_nominal))
        << "seed " << seed << ": victim " << running[index].id.value() << " was not needed";
    gone[index] = true;
  }
}

Outcome run_searches(uint64_t seed, bool fair_sharing) {
  std::mt19937_64 rng(seed);
  const Policy p = random_victim_policy(rng, fair_sharing);
  auto policy = std::make_shared<const CompiledPolicy>(
      CompiledPolicy::compile(p, expand_node_pools(p)).value());
  const Scheduler scheduler(policy);
  const Topology topology(*policy);
  uint64_t next_id = 1;
  const std::vector<AdmittedWorkload> running = random_running(rng, *policy, scheduler, &next_id);
  Outcome outcome;
  for (int i = 0; i < 12; ++i) {
    const PendingWorkload w =
        random_workload(rng, *policy, next_id++, Timestamp() + Duration::hours(1));
    check_one_search(*policy, topology, running, w, seed, &outcome);
    if (::testing::Test::HasFatalFailure()) break;
  }
  return outcome;
}

TEST(VictimSelectorProperties, VictimSetIsMinimalAndSufficientClassic) {
  Outcome total;
  for (uint64_t seed = 1; seed <= 60; ++seed) {
    const Outcome o = run_searches(seed, false);
    total.searches += o.searches;
    total.preempting += o.preempting;
  }
  EXPECT_GT(total.preempting, 20) << "the random worlds rarely preempt (" << total.searches
                                  << " searches)";
}

// Two teams of one cohort on 8 nodes x 8 GPUs: the lender (nominal 8k or 8k + 8) asks for a
// gang of k 8-GPU pods, k in 2..3, with nothing of its own running; the borrower fills every
// node with two 4-GPU jobs started at random times. Clearing k nodes takes 2k jobs (8k GPUs),
// which the borrower, 8k or more above its nominal, may lose: the search must always succeed
// (the greedy walk, most recently started first, scatters its victims over the nodes and stops
// once the borrower is back within its nominal; the gang's node-first walk clears whole
// nodes), and its victims are sufficient and minimal (check_one_search).
TEST(VictimSelectorProperties, AGangWithinNominalClearsWholeNodesOfScatteredBorrowers) {
  Outcome total;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 rng(seed);
    const int64_t pods = 2 + static_cast<int64_t>(rng() % 2);
    const int64_t lender_nominal = 8 * pods + 8 * static_cast<int64_t>(rng() % 2);
    Policy p;
    p.clusters.push_back({});
    p.clusters[0].meta.name = "main";
    testing::add_gpu_pool(p, "a", "pool-a");
    Cohort root;
    root.meta.name = "root";
    p.cohorts = {root};
    PriorityClass pc;
    pc.meta.name = "batch";
    pc.value = 100;
    pc.preemption_grace_period = Duration::seconds(30);
    p.priority_classes.push_back(pc);
    for (const auto& [name, nominal] :
         {std::pair{"lender", lender_nominal}, std::pair{"borrower", 64 - lender_nominal}}) {
      Team team;
      team.meta.name = name;
      team.namespace_name = name;
      team.cohort = "root";
      team.quota = {testing::gpu_quota("a", nominal)};
      team.preemption.reclaim_within_cohort = ReclaimPolicy::kAny;
      team.preemption.within_team = WithinTeamPolicy::kNever;
      p.teams.push_back(team);
    }
    auto policy = std::make_shared<const CompiledPolicy>(
        CompiledPolicy::compile(p, expand_node_pools(p)).value());
    const Topology topology(*policy);
    std::vector<AdmittedWorkload> running;
    uint64_t id = 1;
    for (int32_t node = 0; node < policy->node_count(); ++node) {
      for (const uint64_t mask : {uint64_t{0x0F}, uint64_t{0xF0}}) {
        AdmittedWorkload w;
        w.id = WorkloadId(id++);
        w.team = TeamIndex(1);
        w.priority_class = PriorityClassIndex(0);
        w.priority = 100;
        w.admitted_at = Timestamp() + Duration::seconds(static_cast<int64_t>(rng() % 3000));
        w.last_checkpoint = w.admitted_at;
        w.flavor = FlavorIndex(0);
        PodSetRequest set;
        set.per_pod = ResourceVector(4, 1000, 0);
        w.pod_sets = {set};
        w.assignment = {{1, {PodPlacement{NodeIndex(node), mask}}}};
        running.push_back(w);
      }
    }
    PendingWorkload gang;
    gang.id = WorkloadId(id);
    gang.team = TeamIndex(0);
    gang.priority_class = PriorityClassIndex(0);
    gang.priority = 100;
    gang.queued_at = Timestamp() + Duration::hours(1);
    PodSetRequest set;
    set.per_pod = ResourceVector(8, 1000, 0);
    set.count = static_cast<int32_t>(pods);
    set.min_count = set.count;
    gang.pod_sets = {set};
    Outcome outcome;
    check_one_search(*policy, topology, running, gang, seed, &outcome);
    ASSERT_FALSE(::testing::Test::HasFailure()) << "seed " << seed;
    EXPECT_EQ(outcome.searches, 1) << "seed " << seed;
    EXPECT_EQ(outcome.preempting, 1)
        << "seed " << seed << ": a gang of " << pods << " pods found no victims";
    total.gang_walks += outcome.gang_walks;
  }
  // Not vacuous: the greedy walk alone fails in most of these worlds.
  EXPECT_GT(total.gang_walks, 20);
}

TEST(VictimSelectorProperties, VictimSetIsMinimalAndSufficientFairSharing) {
  Outcome total;
  for (uint64_t seed = 500; seed <= 560; ++seed) {
    const Outcome o = run_searches(seed, true);
    total.searches += o.searches;
    total.preempting += o.preempting;
  }
  EXPECT_GT(total.preempting, 20) << "the random worlds rarely preempt (" << total.searches
                                  << " searches)";
}

// The searches known to fail (victim_search_shortcut.cc) against the full
// walk: the same verdict, victims and condition for every search, over random
// worlds biased toward the rules' conditions (a flat cohort, teams that never
// preempt their own work nor borrow to preempt).
struct ShortcutCount {
  int64_t taken = 0;
  int searches = 0;
};

void compare_with_full_search(uint64_t seed, bool fair_sharing, bool flat, ShortcutCount* count) {
  std::mt19937_64 rng(seed);
  Policy p = random_victim_policy(rng, fair_sharing);
  if (flat) {
    p.cohorts.resize(1);
    for (Team& team : p.teams) team.cohort = "root";
  }
  for (Team& team : p.teams) {
    if (rng() % 4 != 0) team.preemption.within_team = WithinTeamPolicy::kNever;
    if (rng() % 4 != 0) team.preemption.borrow_within_cohort = BorrowWithinCohortPolicy::kNever;
  }
  auto policy = std::make_shared<const CompiledPolicy>(
      CompiledPolicy::compile(p, expand_node_pools(p)).value());
  const Scheduler scheduler(policy);
  const Topology topology(*policy);
  uint64_t next_id = 1;
  const std::vector<AdmittedWorkload> running = random_running(rng, *policy, scheduler, &next_id);
  const std::vector<bool> none(running.size(), false);
  const Timestamp now = Timestamp() + Duration::hours(1);
  for (int i = 0; i < 16; ++i) {
    const PendingWorkload w = random_workload(rng, *policy, next_id++, now);
    const ResourceVector total = w.pod_sets[0].per_pod * w.pod_sets[0].count;
    const std::vector<int32_t> counts{w.pod_sets[0].count};
    VictimChoice answers[2];
    for (const bool shortcuts : {true, false}) {
      Cluster c{QuotaTree(*policy), CapacityIndex(*policy, topology, {})};
      hold_all(c, running, none);
      VictimSelector selector(c.quota, c.capacity, running, none, now);
      selector.use_shortcuts(shortcuts);
      answers[shortcuts ? 0 : 1] = selector.find(w, FlavorIndex(0), total, counts);
      if (shortcuts) {
        count->taken += selector.shortcuts_taken();
      } else {
        EXPECT_EQ(selector.shortcuts_taken(), 0);
      }
    }
    ++count->searches;
    EXPECT_EQ(answers[0].verdict, answers[1].verdict) << "seed " << seed << " search " << i;
    EXPECT_EQ(answers[0].victims, answers[1].victims) << "seed " << seed << " search " << i;
    EXPECT_EQ(answers[0].within_nominal, answers[1].within_nominal) << "seed " << seed;
  }
}

TEST(VictimSelectorProperties, ShortcutsAnswerAsTheFullSearch) {
  ShortcutCount classic;
  ShortcutCount fair;
  for (uint64_t seed = 900; seed <= 1020; ++seed) {
    compare_with_full_search(seed, /*fair_sharing=*/false, /*flat=*/seed % 2 == 0, &classic);
    compare_with_full_search(seed, /*fair_sharing=*/true, /*flat=*/seed % 3 != 0, &fair);
  }
  // Not vacuous: both rules answered many searches.
  EXPECT_GT(classic.taken, 200) << classic.searches << " classic searches";
  EXPECT_GT(fair.taken, 100) << fair.searches << " fair-sharing searches";
}

// The fair-sharing fast path (fair_share_candidates.cc: candidates read team
// by team, skipping teams within their nominal) against the plain collection
// (collect() over every slot of the tree, then bucketed), each with its own
// selector kept through a sequence of searches as a cycle makes them: victims
// become unavailable and some stop at once, so shares and the teams open to
// preemption move between searches. Flat and nested trees (two sibling
// cohorts whose shares can tie among them), a minRuntime that
// leaves some work too young, preemptors that were preempted by running work.
struct FastPathCount {
  int searches = 0;
  int preempting = 0;
  int refused = 0;
  int too_young = 0;
  int64_t refused_whole = 0;  // targets whose remaining candidates were refused at once
};

void compare_fair_share_fast_path(uint64_t seed, FastPathCount* count) {
  std::mt19937_64 rng(seed);
  Policy p = random_victim_policy(rng, /*fair_sharing=*/true);
  if (seed % 3 == 0) {
    p.cohorts.resize(1);
    for (Team& team : p.teams) team.cohort = "root";
  } else if (seed % 3 == 1) {  // two sibling cohorts, whose shares can tie
    Cohort sibling;
    sibling.meta.name = "sibling";
    sibling.parent = "root";
    sibling.fair_share_weight = p.cohorts[1].fair_share_weight;
    p.cohorts.push_back(sibling);
    for (Team& team : p.teams) {
      if (team.cohort == "root") team.cohort = "sibling";
    }
    if (seed % 2 == 0) {  // three cohorts, all borrowed from the root
      Cohort third = sibling;
      third.meta.name = "third";
      p.cohorts.push_back(third);
      p.teams[2].cohort = "third";
      p.cohorts[0].quota = {testing::gpu_quota("a", 16)};
      p.cohorts[1].quota.clear();
      for (Team& team : p.teams) team.quota = {testing::gpu_quota("a", 0)};
    }
  }
  for (PriorityClass& pc : p.priority_classes) {
    pc.min_runtime = Duration::seconds(static_cast<int64_t>(rng() % 3) * 120);
  }
  auto policy = std::make_shared<const CompiledPolicy>(
      CompiledPolicy::compile(p, expand_node_pools(p)).value());
  const Scheduler scheduler(policy);
  const Topology topology(*policy);
  uint64_t next_id = 1;
  const std::vector<AdmittedWorkload> running = random_running(rng, *policy, scheduler, &next_id);
  if (running.empty()) return;
  const std::vector<bool> none(running.size(), false);
  const Timestamp now = Timestamp() + Duration::seconds(420);
  Cluster fast{QuotaTree(*policy), CapacityIndex(*policy, topology, {})};
  Cluster plain{QuotaTree(*policy), CapacityIndex(*policy, topology, {})};
  hold_all(fast, running, none);
  hold_all(plain, running, none);
  std::vector<bool> unavailable(running.size(), false);  // both selectors read it
  VictimSelector fast_selector(fast.quota, fast.capacity, running, unavailable, now);
  VictimSelector plain_selector(plain.quota, plain.capacity, running, unavailable, now);
  plain_selector.use_shortcuts(false);
  for (int i = 0; i < 24; ++i) {
    PendingWorkload w = random_workload(rng, *policy, next_id++, now);
    if (rng() % 5 == 0) w.preempted_by = running[rng() % running.size()].id;
    const ResourceVector total = w.pod_sets[0].per_pod * w.pod_sets[0].count;
    const std::vector<int32_t> counts{w.pod_sets[0].count};
    const VictimChoice a = fast_selector.find(w, FlavorIndex(0), total, counts);
    const VictimChoice b = plain_selector.find(w, FlavorIndex(0), total, counts);
    ++count->searches;
    ASSERT_EQ(a.verdict, b.verdict) << "seed " << seed << " search " << i;
    ASSERT_EQ(a.victims, b.victims) << "seed " << seed << " search " << i;
    ASSERT_EQ(a.within_nominal, b.within_nominal) << "seed " << seed << " search " << i;
    count->refused += a.verdict == PreemptionVerdict::kFairShareRefused ? 1 : 0;
    count->too_young += a.verdict == PreemptionVerdict::kCandidatesTooYoung ? 1 : 0;
    if (a.verdict != PreemptionVerdict::kPreempting) continue;
    ++count->preempting;
    const bool stop_at_once = rng() % 2 == 0;
    for (const auto& [index, reason] : a.victims) {
      unavailable[index] = true;
      if (stop_at_once) {
        fast_selector.release(index);
        plain_selector.release(index);
      }
    }
  }
  count->refused_whole += fast_selector.teams_refused_whole();
  EXPECT_EQ(plain_selector.teams_refused_whole(), 0);
}

TEST(VictimSelectorProperties, FairShareFastPathAnswersAsThePlainPath) {
  FastPathCount count;
  for (uint64_t seed = 2000; seed <= 2150; ++seed) {
    compare_fair_share_fast_path(seed, &count);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // Not vacuous: searches that preempt, that the share rule refuses, and
  // that find only work too young.
  EXPECT_GT(count.preempting, 150) << count.searches << " searches";
  EXPECT_GT(count.refused, 50) << count.searches << " searches";
  EXPECT_GT(count.too_young, 10) << count.searches << " searches";
  // ... and targets whose remaining candidates the least-held bound refused at once.
  EXPECT_GT(count.refused_whole, 20) << count.searches << " searches";
}

// The fits() latches (victim_selector.h, quota_known_to_fit_): a selector
// with shortcuts against one without, each kept through a sequence of
// searches as a cycle makes them (victims become unavailable, half of them
// stop at once), classic and fair sharing, over a cluster filled with small
// work; half the preemptors are gangs of whole-node pods, which scattered
// victims rarely make room for (the placer's failures the latch remembers),
// half the worlds with the whole cluster lent from the root. Every verdict, victim list and
// within_nominal must be equal, and the latch must answer many fits().
struct LatchCount {
  int searches = 0;
  int preempting = 0;
  int64_t latched = 0;
};

void compare_fit_latches(uint64_t seed, bool fair_sharing, LatchCount* count) {
  std::mt19937_64 rng(seed);
  Policy p = random_victim_policy(rng, fair_sharing);
  // Half the worlds lend the whole cluster from the root, so that nodes, not
  // quota, stop most preemptors (the placer's failures are what the latch keeps).
  if (seed % 2 == 0) {
    p.cohorts[0].quota = {testing::gpu_quota("a", 64)};
    p.cohorts[1].quota.clear();
    for (Team& team : p.teams) {
      team.quota = {testing::gpu_quota("a", 4 * static_cast<int64_t>(rng() % 3))};
    }
  }
  auto policy = std::make_shared<const CompiledPolicy>(
      CompiledPolicy::compile(p, expand_node_pools(p)).value());
  const Scheduler scheduler(policy);
  const Topology topology(*policy);
  uint64_t next_id = 1;
  // The cluster filled with small work (1-2 GPUs), scattered over the nodes.
  Snapshot s;
  s.nodes.assign(policy->node_count(), NodeCondition{});
  for (int step = 0; step < 8; ++step) {
    s.now = s.now + Duration::seconds(60);
    for (int k = 0; k < 8; ++k) {
      PendingWorkload small = random_workload(rng, *policy, next_id++, s.now);
      small.pod_sets[0].per_pod = ResourceVector(1 + static_cast<int64_t>(rng() % 2), 1000, 0);
      small.pod_sets[0].count = small.pod_sets[0].min_count = 1;
      s.pending.push_back(small);
    }
    testing::admit_planned(s, scheduler.plan(s));
  }
  const std::vector<AdmittedWorkload>& running = s.admitted;
  if (running.empty()) return;
  const Timestamp now = Timestamp() + Duration::hours(1);
  Cluster latched{QuotaTree(*policy), CapacityIndex(*policy, topology, {})};
  Cluster plain{QuotaTree(*policy), CapacityIndex(*policy, topology, {})};
  std::vector<bool> unavailable(running.size(), false);  // both selectors read it
  hold_all(latched, running, unavailable);
  hold_all(plain, running, unavailable);
  VictimSelector latched_selector(latched.quota, latched.capacity, running, unavailable, now);
  VictimSelector plain_selector(plain.quota, plain.capacity, running, unavailable, now);
  plain_selector.use_shortcuts(false);
  for (int i = 0; i < 24; ++i) {
    PendingWorkload w = random_workload(rng, *policy, next_id++, now);
    if (rng() % 2 == 0) w.pod_sets[0].per_pod = ResourceVector(8, 1000, 0);
    const ResourceVector total = w.pod_sets[0].per_pod * w.pod_sets[0].count;
    const std::vector<int32_t> counts{w.pod_sets[0].count};
    const VictimChoice a = latched_selector.find(w, FlavorIndex(0), total, counts);
    const VictimChoice b = plain_selector.find(w, FlavorIndex(0), total, counts);
    ++count->searches;
    ASSERT_EQ(a.verdict, b.verdict) << "seed " << seed << " search " << i;
    ASSERT_EQ(a.victims, b.victims) << "seed " << seed << " search " << i;
    ASSERT_EQ(a.within_nominal, b.within_nominal) << "seed " << seed << " search " << i;
    if (a.verdict != PreemptionVerdict::kPreempting) continue;
    ++count->preempting;
    const bool stop_at_once = rng() % 2 == 0;
    for (const auto& [index, reason] : a.victims) {
      unavailable[index] = true;
      if (stop_at_once) {
        latched_selector.release(index);
        plain_selector.release(index);
      }
    }
  }
  count->latched += latched_selector.fits_latched();
  EXPECT_EQ(plain_selector.fits_latched(), 0);
}

TEST(VictimSelectorProperties, FitLatchesAnswerAsThePlainSearch) {
  LatchCount classic;
  LatchCount fair;
  for (uint64_t seed = 3000; seed <= 3150; ++seed) {
    compare_fit_latches(seed, /*fair_sharing=*/false, &classic);
    compare_fit_latches(seed, /*fair_sharing=*/true, &fair);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // Not vacuous: searches that preempt, and fits() the latches answered.
  EXPECT_GT(classic.preempting, 100) << classic.searches << " classic searches";
  EXPECT_GT(fair.preempting, 100) << fair.searches << " fair-sharing searches";
  EXPECT_GT(classic.latched, 200) << classic.searches << " classic searches";
  EXPECT_GT(fair.latched, 200) << fair.searches << " fair-sharing searches";
}

// Classic collect() judges another team through its cohort's view (what lies
// above the team, worked out once per cohort and search) against the plain
// path (each team walked from its own quota node up): the same answers over a
// sequence of searches on one selector each, as a cycle makes them (victims
// become unavailable, some stop at once, so which teams and cohorts are above
// their quota moves between searches). Trees of two and three levels of
// cohorts, teams beside cohorts.
struct CohortViewCount {
  int searches = 0;
  int preempting = 0;
  int cross_team = 0;  // preempting searches with another team's victim
  int deep = 0;        // of those, a victim two or more cohorts away
};

void compare_cohort_views(uint64_t seed, CohortViewCount* count) {
  std::mt19937_64 rng(seed);
  Policy p = random_victim_policy(rng, /*fair_sharing=*/false);
  if (seed % 2 == 0) {  // a third level: t0 and t1 under a cohort of "child"
    Cohort grandchild;
    grandchild.meta.name = "grandchild";
    grandchild.parent = "child";
    if (rng() % 2 == 0) grandchild.quota = {testing::gpu_quota("a", 4)};
    p.cohorts.push_back(grandchild);
    p.teams[0].cohort = "grandchild";
    p.teams[1].cohort = "grandchild";
  }
  auto policy = std::make_shared<const CompiledPolicy>(
      CompiledPolicy::compile(p, expand_node_pools(p)).value());
  const Scheduler scheduler(policy);
  const Topology topology(*policy);
  uint64_t next_id = 1;
  const std::vector<AdmittedWorkload> running = random_running(rng, *policy, scheduler, &next_id);
  if (running.empty()) return;
  const std::vector<bool> none(running.size(), false);
  const Timestamp now = Timestamp() + Duration::hours(1);
  Cluster viewed{QuotaTree(*policy), CapacityIndex(*policy, topology, {})};
  Cluster plain{QuotaTree(*policy), CapacityIndex(*policy, topology, {})};
  hold_all(viewed, running, none);
  hold_all(plain, running, none);
  std::vector<bool> unavailable(running.size(), false);  // both selectors read it
  VictimSelector viewed_selector(viewed.quota, viewed.capacity, running, unavailable, now);
  VictimSelector plain_selector(plain.quota, plain.capacity, running, unavailable, now);
  plain_selector.use_cohort_views(false);
  for (int i = 0; i < 24; ++i) {
    const PendingWorkload w = random_workload(rng, *policy, next_id++, now);
    const ResourceVector total = w.pod_sets[0].per_pod * w.pod_sets[0].count;
    const std::vector<int32_t> counts{w.pod_sets[0].count};
    const VictimChoice a = viewed_selector.find(w, FlavorIndex(0), total, counts);
    const VictimChoice b = plain_selector.find(w, FlavorIndex(0), total, counts);
    ++count->searches;
    ASSERT_EQ(a.verdict, b.verdict) << "seed " << seed << " search " << i;
    ASSERT_EQ(a.victims, b.victims) << "seed " << seed << " search " << i;
    ASSERT_EQ(a.within_nominal, b.within_nominal) << "seed " << seed << " search " << i;
    if (a.verdict != PreemptionVerdict::kPreempting) continue;
    ++count->preempting;
    bool cross = false;
    bool deep = false;
    for (const auto& [index, reason] : a.victims) {
      const TeamIndex team = running[index].team;
      if (team == w.team) continue;
      cross = true;
      deep = deep || policy->parent(policy->team(team).quota_node) !=
                         policy->parent(policy->team(w.team).quota_node);
    }
    count->cross_team += cross ? 1 : 0;
    count->deep += deep ? 1 : 0;
    const bool stop_at_once = rng() % 2 == 0;
    for (const auto& [index, reason] : a.victims) {
      unavailable[index] = true;
      if (stop_at_once) {
        viewed_selector.release(index);
        plain_selector.release(index);
      }
    }
  }
}

TEST(VictimSelectorProperties, ClassicCohortViewsAnswerAsThePlainPath) {
  CohortViewCount count;
  for (uint64_t seed = 3000; seed <= 3200; ++seed) {
    compare_cohort_views(seed, &count);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // Not vacuous: other teams' work taken, also from teams in other cohorts.
  EXPECT_GT(count.preempting, 300) << count.searches << " searches";
  EXPECT_GT(count.cross_team, 100) << count.preempting << " preempting";
  EXPECT_GT(count.deep, 30) << count.cross_team << " cross-team";
  std::printf("cohort views: %d searches, %d preempting, %d cross-team, %d deep\n", count.searches,
              count.preempting, count.cross_team, count.deep);
}

}  // namespace
}  // namespace allot
