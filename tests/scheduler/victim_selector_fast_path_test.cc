// Property tests of the victim search's fast paths against its plain
// path, over the random worlds of victim_world.h: the searches known to fail,
// the fair-sharing candidates read team by team, the fit latches within a
// search and classic candidates judged through their cohort's view must each
// answer every search exactly as the plain path does.
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
#include "victim_world.h"

namespace allot {
namespace {

using testing::Cluster;
using testing::fits;
using testing::hold_all;
using testing::random_running;
using testing::random_victim_policy;
using testing::random_workload;

// A selector on a fast path and one on the plain path over copies of the same
// cluster, both reading `unavailable`. search() asks both the same and
// requires the same answer (verdict, victims, within_nominal); take() carries
// a preempting answer out as a cycle does: its victims become unavailable
// and, one time in two, stop at once.
struct SelectorPair {
  VictimSelector& fast;
  VictimSelector& plain;
  std::vector<bool>& unavailable;

  void search(const PendingWorkload& w, uint64_t seed, int i, VictimChoice* answer) {
    const ResourceVector total = w.pod_sets[0].per_pod * w.pod_sets[0].count;
    const std::vector<int32_t> counts{w.pod_sets[0].count};
    const VictimChoice a = fast.find(w, FlavorIndex(0), total, counts);
    const VictimChoice b = plain.find(w, FlavorIndex(0), total, counts);
    ASSERT_EQ(a.verdict, b.verdict) << "seed " << seed << " search " << i;
    ASSERT_EQ(a.victims, b.victims) << "seed " << seed << " search " << i;
    ASSERT_EQ(a.within_nominal, b.within_nominal) << "seed " << seed << " search " << i;
    *answer = a;
  }

  void take(const VictimChoice& a, std::mt19937_64& rng) {
    const bool stop_at_once = rng() % 2 == 0;
    for (const auto& [index, reason] : a.victims) {
      unavailable[index] = true;
      if (stop_at_once) {
        fast.release(index);
        plain.release(index);
      }
    }
  }
};

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
  SelectorPair pair{fast_selector, plain_selector, unavailable};
  for (int i = 0; i < 24; ++i) {
    PendingWorkload w = random_workload(rng, *policy, next_id++, now);
    if (rng() % 5 == 0) w.preempted_by = running[rng() % running.size()].id;
    VictimChoice a;
    pair.search(w, seed, i, &a);
    if (::testing::Test::HasFatalFailure()) return;
    ++count->searches;
    count->refused += a.verdict == PreemptionVerdict::kFairShareRefused ? 1 : 0;
    count->too_young += a.verdict == PreemptionVerdict::kCandidatesTooYoung ? 1 : 0;
    if (a.verdict != PreemptionVerdict::kPreempting) continue;
    ++count->preempting;
    pair.take(a, rng);
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
  SelectorPair pair{latched_selector, plain_selector, unavailable};
  for (int i = 0; i < 24; ++i) {
    PendingWorkload w = random_workload(rng, *policy, next_id++, now);
    if (rng() % 2 == 0) w.pod_sets[0].per_pod = ResourceVector(8, 1000, 0);
    VictimChoice a;
    pair.search(w, seed, i, &a);
    if (::testing::Test::HasFatalFailure()) return;
    ++count->searches;
    if (a.verdict != PreemptionVerdict::kPreempting) continue;
    ++count->preempting;
    pair.take(a, rng);
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
  SelectorPair pair{viewed_selector, plain_selector, unavailable};
  for (int i = 0; i < 24; ++i) {
    const PendingWorkload w = random_workload(rng, *policy, next_id++, now);
    VictimChoice a;
    pair.search(w, seed, i, &a);
    if (::testing::Test::HasFatalFailure()) return;
    ++count->searches;
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
    pair.take(a, rng);
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
