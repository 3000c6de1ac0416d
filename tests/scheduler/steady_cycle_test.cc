// The shortcuts of the steady cycle (issue 12 item 7) answer exactly as the
// long way does: a flavor slice of the quota tree as the whole tree,
// earliest_quota_fit in place as on a copy, and the GPU pod slots that the
// gang placer's pre-check reads as a count over the nodes.
#include <algorithm>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "model/node_inventory.h"
#include "policy_builders.h"
#include "scheduler/capacity_index.h"
#include "scheduler/fair_share.h"
#include "scheduler/gang_placer.h"
#include "scheduler/quota_tree.h"
#include "scheduler/released_quota.h"
#include "scheduler/reserved_quota.h"
#include "scheduler/topology.h"

namespace allot {
namespace {

const FlavorIndex kSteadyH100(0);
const FlavorIndex kA100(1);
constexpr int32_t kTeams = 4;

// root { mid { t0(10, lend 4), t1(6, borrow 2) }, t2(20), t3(0) } in two flavors,
// each with its pool of 8 nodes x 8 GPUs.
CompiledPolicy two_flavor_policy() {
  Policy p;
  testing::add_gpu_pool(p, "h100", "h100-pool");
  testing::add_gpu_pool(p, "a100", "a100-pool");
  Cohort root;
  root.meta.name = "root";
  Cohort mid;
  mid.meta.name = "mid";
  mid.parent = "root";
  p.cohorts = {root, mid};
  const auto team = [](const std::string& name, const std::string& cohort, int64_t nominal,
                       std::optional<int64_t> borrow, std::optional<int64_t> lend) {
    Team t;
    t.meta.name = name;
    t.namespace_name = name;
    t.cohort = cohort;
    t.quota = {testing::gpu_quota("h100", nominal * 2, borrow, lend),
               testing::gpu_quota("a100", nominal, borrow, lend)};
    return t;
  };
  p.teams = {team("t0", "mid", 10, {}, 4), team("t1", "mid", 6, 2, {}),
             team("t2", "root", 20, {}, {}), team("t3", "root", 0, {}, {})};
  return CompiledPolicy::compile(p, expand_node_pools(p)).value();
}

ResourceVector steady_gpus(int64_t n) { return ResourceVector(n, 0, 0); }

void expect_same_answers(const QuotaTree& whole, const QuotaTree& slice, FlavorIndex flavor) {
  const CompiledPolicy& policy = whole.policy();
  const int32_t fr = CompiledPolicy::fr_of(flavor, Resource::kGpu);
  for (int32_t node = 0; node < policy.quota_node_count(); ++node) {
    ASSERT_EQ(slice.usage(node, fr), whole.usage(node, fr)) << "node " << node;
    ASSERT_EQ(slice.available(node, fr), whole.available(node, fr)) << "node " << node;
  }
  for (int32_t t = 0; t < kTeams; ++t) {
    for (int64_t request : {1, 5, 12, 30}) {
      const QuotaShortfall a = whole.shortfall(TeamIndex(t), flavor, steady_gpus(request));
      const QuotaShortfall b = slice.shortfall(TeamIndex(t), flavor, steady_gpus(request));
      ASSERT_EQ(a.fr, b.fr);
      ASSERT_EQ(a.binding_node, b.binding_node);
      ASSERT_EQ(a.available, b.available);
      ASSERT_EQ(whole.would_borrow(TeamIndex(t), flavor, steady_gpus(request)),
                slice.would_borrow(TeamIndex(t), flavor, steady_gpus(request)));
    }
    ASSERT_EQ(whole.borrowing(TeamIndex(t), flavor), slice.borrowing(TeamIndex(t), flavor));
  }
}

TEST(QuotaTreeSlice, AnswersAsTheWholeTreeDoesThroughRandomChanges) {
  const CompiledPolicy policy = two_flavor_policy();
  std::mt19937 random(7);
  QuotaTree whole(policy);
  // Usage in both flavors before the slice is taken: the slice keeps a100's only.
  for (int32_t t = 0; t < kTeams; ++t) {
    whole.add_usage(TeamIndex(t), kSteadyH100, steady_gpus(3 + t));
    whole.add_usage(TeamIndex(t), kA100, steady_gpus(2 * t));
  }
  QuotaTree slice = whole.flavor_slice(kA100);
  expect_same_answers(whole, slice, kA100);
  for (int step = 0; step < 400; ++step) {
    const TeamIndex team(static_cast<int32_t>(random() % kTeams));
    const int64_t amount = static_cast<int64_t>(random() % 9) + 1;
    const int32_t fr = CompiledPolicy::fr_of(kA100, Resource::kGpu);
    if (random() % 2 == 0 || whole.usage(policy.team(team).quota_node, fr) < amount) {
      whole.add_usage(team, kA100, steady_gpus(amount));
      slice.add_usage(team, kA100, steady_gpus(amount));
    } else {
      whole.remove_usage(team, kA100, steady_gpus(amount));
      slice.remove_usage(team, kA100, steady_gpus(amount));
    }
    // The other flavor moves on the whole tree only; the slice never sees it.
    whole.add_usage(team, kSteadyH100, steady_gpus(1));
    expect_same_answers(whole, slice, kA100);
  }
}

// A reserved gang keeps a flavor slice: only the flavor's resources up to its
// last governed one (gpu here) are kept, the others read 0 as on the whole tree.
TEST(QuotaTreeSlice, KeepsOnlyTheResourcesUpToTheLastGovernedOne) {
  const CompiledPolicy policy = two_flavor_policy();
  QuotaTree whole(policy);
  for (int32_t t = 0; t < kTeams; ++t) {
    whole.add_usage(TeamIndex(t), kA100, ResourceVector(2 + t, 1000, 1 << 20));
  }
  const QuotaTree slice = whole.flavor_slice(kA100);
  EXPECT_EQ(slice.usage_values(), static_cast<size_t>(policy.quota_node_count()));
  EXPECT_EQ(whole.usage_values(), static_cast<size_t>(policy.quota_node_count()) *
                                      static_cast<size_t>(policy.fr_count()));
  for (int32_t node = 0; node < policy.quota_node_count(); ++node) {
    for (Resource r : kAllResources) {
      const int32_t fr = CompiledPolicy::fr_of(kA100, r);
      EXPECT_EQ(slice.usage(node, fr), whole.usage(node, fr)) << "node " << node;
    }
  }
  EXPECT_GT(slice.usage(policy.team(TeamIndex(1)).quota_node,
                        CompiledPolicy::fr_of(kA100, Resource::kGpu)),
            0);
  expect_same_answers(whole, slice, kA100);
}

// Fair sharing's victim search reads shares split by flavor: the other
// flavors' part taken once (borrowed_ratio_outside), the search's flavor
// looked at each time. Both must equal the whole shares, bit for bit, while
// only the search's flavor moves after the outside part was taken.
TEST(FairShareByFlavor, SplitSharesEqualTheWholeSharesWhileOnlyTheFlavorMoves) {
  const CompiledPolicy policy = two_flavor_policy();
  std::mt19937 random(13);
  int both_borrowed = 0;  // checks where the outside part and the whole share were both positive
  for (int round = 0; round < 60; ++round) {
    QuotaTree tree(policy);
    for (int32_t t = 0; t < kTeams; ++t) {
      tree.add_usage(TeamIndex(t), kSteadyH100, steady_gpus(static_cast<int64_t>(random() % 30)));
      tree.add_usage(TeamIndex(t), kA100, steady_gpus(static_cast<int64_t>(random() % 16)));
    }
    const FlavorIndex flavor = round % 2 == 0 ? kA100 : kSteadyH100;
    const int32_t fr = CompiledPolicy::fr_of(flavor, Resource::kGpu);
    std::vector<double> outside;
    for (int32_t node = 0; node < policy.quota_node_count(); ++node) {
      outside.push_back(borrowed_ratio_outside(tree, node, flavor));
    }
    for (int step = 0; step < 20; ++step) {
      for (int32_t node = 0; node < policy.quota_node_count(); ++node) {
        const double whole = weighted_share(tree, node);
        ASSERT_EQ(weighted_share_in(tree, node, flavor, outside[node]), whole)
            << "round " << round << " step " << step << " node " << node;
        both_borrowed += outside[node] > 0.0 && whole > 0.0 ? 1 : 0;
        for (int32_t t = 0; t < kTeams; ++t) {
          const ResourceVector delta = steady_gpus(static_cast<int64_t>(random() % 13) - 6);
          ASSERT_EQ(weighted_share_after_in(tree, node, TeamIndex(t), flavor, delta, outside[node]),
                    weighted_share_after(tree, node, TeamIndex(t), flavor, delta))
              << "round " << round << " step " << step << " node " << node << " team " << t;
        }
      }
      // Only the search's flavor moves, as victims are taken and put back.
      const TeamIndex team(static_cast<int32_t>(random() % kTeams));
      const int64_t amount = static_cast<int64_t>(random() % 7) + 1;
      if (random() % 2 == 0 || tree.usage(policy.team(team).quota_node, fr) < amount) {
        tree.add_usage(team, flavor, steady_gpus(amount));
      } else {
        tree.remove_usage(team, flavor, steady_gpus(amount));
      }
    }
  }
  EXPECT_GT(both_borrowed, 1000);
}

// ReleasedQuota, kept between gangs and moved release by release, against
// the flavor slice built with the releases taken out each time: the same
// usage at every quota node, while the live tree and the releases change
// between calls (a changed release list comes with a new version).
TEST(ReleasedQuota, KeptSliceEqualsTheSliceBuiltEachTime) {
  const CompiledPolicy policy = two_flavor_policy();
  std::mt19937 random(17);
  const Timestamp now = Timestamp::from_millis(1'000'000);
  const int32_t first = CompiledPolicy::fr_of(kA100, Resource::kGpu);
  int64_t calls = 0;
  for (int round = 0; round < 40; ++round) {
    QuotaTree live(policy);
    live.add_usage(TeamIndex(2), kSteadyH100, steady_gpus(5));
    std::vector<QuotaRelease> releases;
    const auto add_release = [&] {
      const TeamIndex team(static_cast<int32_t>(random() % kTeams));
      const ResourceVector amount = steady_gpus(static_cast<int64_t>(random() % 6) + 1);
      live.add_usage(team, kA100, amount);
      const Timestamp at = random() % 6 == 0
                               ? Timestamp::infinite_future()
                               : now + Duration::seconds(static_cast<int64_t>(random() % 900));
      const QuotaRelease release{at, team, amount};
      releases.insert(std::upper_bound(
                          releases.begin(), releases.end(), release,
                          [](const QuotaRelease& a, const QuotaRelease& b) { return a.at < b.at; }),
                      release);
    };
    for (int i = 0; i < 15; ++i) add_release();
    uint64_t version = 1;
    ReleasedQuota kept(kA100);
    for (int gang = 0; gang < 30; ++gang) {
      const int change = static_cast<int>(random() % 8);
      if (change == 0) {  // the releases change: a new version
        add_release();
        ++version;
      } else if (change == 1) {  // the live tree changes, the releases do not
        live.add_usage(TeamIndex(static_cast<int32_t>(random() % kTeams)), kA100, steady_gpus(1));
      } else if (change == 2) {  // another flavor moves: nothing to rebuild
        live.add_usage(TeamIndex(0), kSteadyH100, steady_gpus(1));
      }
      const Timestamp at = random() % 10 == 0
                               ? Timestamp::infinite_future()
                               : now + Duration::seconds(static_cast<int64_t>(random() % 1000));
      const QuotaTree expected = released_quota_at(live, releases, kA100, at);
      const QuotaTree& got = kept.at(live, releases, version, at);
      ++calls;
      for (int32_t node = 0; node < policy.quota_node_count(); ++node) {
        for (int32_t fr = first; fr < first + kResourceCount; ++fr) {
          ASSERT_EQ(got.usage(node, fr), expected.usage(node, fr))
              << "round " << round << " gang " << gang << " node " << node;
        }
      }
      for (int32_t t = 0; t < kTeams; ++t) {
        ASSERT_EQ(got.fits(TeamIndex(t), kA100, steady_gpus(9)),
                  expected.fits(TeamIndex(t), kA100, steady_gpus(9)));
      }
    }
    EXPECT_GT(kept.reused(), 10) << "round " << round;
  }
  EXPECT_EQ(calls, 40 * 30);
}

// The earlier form of earliest_quota_fit: on a copy of the tree.
Timestamp earliest_on_a_copy(QuotaTree quota, const std::vector<QuotaRelease>& releases,
                             TeamIndex team, FlavorIndex flavor, const ResourceVector& request,
                             Timestamp now) {
  if (quota.fits(team, flavor, request)) return now;
  for (const QuotaRelease& release : releases) {
    if (release.at == Timestamp::infinite_future()) break;
    quota.remove_usage(release.team, flavor, release.amount);
    if (quota.fits(team, flavor, request)) return std::max(release.at, now);
  }
  return Timestamp::infinite_future();
}

TEST(EarliestQuotaFit, InPlaceGivesTheCopysAnswerAndLeavesTheTreeAsItWas) {
  const CompiledPolicy policy = two_flavor_policy();
  std::mt19937 random(11);
  const Timestamp now = Timestamp::from_millis(1'000'000);
  for (int round = 0; round < 200; ++round) {
    QuotaTree quota(policy);
    std::vector<QuotaRelease> releases;
    for (int i = 0; i < 12; ++i) {
      const TeamIndex team(static_cast<int32_t>(random() % kTeams));
      const ResourceVector amount = steady_gpus(static_cast<int64_t>(random() % 6) + 1);
      quota.add_usage(team, kA100, amount);
      const Timestamp at = random() % 5 == 0
                               ? Timestamp::infinite_future()
                               : now + Duration::seconds(static_cast<int64_t>(random() % 900));
      releases.push_back({at, team, amount});
    }
    std::stable_sort(releases.begin(), releases.end(),
                     [](const QuotaRelease& a, const QuotaRelease& b) { return a.at < b.at; });
    const QuotaTree before = quota;
    const TeamIndex team(static_cast<int32_t>(random() % kTeams));
    const ResourceVector request = steady_gpus(static_cast<int64_t>(random() % 30) + 1);
    const Timestamp expected = earliest_on_a_copy(quota, releases, team, kA100, request, now);
    EXPECT_EQ(earliest_quota_fit(quota, releases, team, kA100, request, now), expected);
    for (int32_t node = 0; node < policy.quota_node_count(); ++node) {
      for (int32_t fr = 0; fr < policy.fr_count(); ++fr) {
        ASSERT_EQ(quota.usage(node, fr), before.usage(node, fr));
        ASSERT_EQ(quota.available(node, fr), before.available(node, fr));
      }
    }
  }
}

int64_t slots_by_counting(const CapacityIndex& capacity, const CompiledPolicy& policy,
                          FlavorIndex flavor, int64_t per_pod, bool open_only = false) {
  int64_t slots = 0;
  for (int32_t n = 0; n < policy.node_count(); ++n) {
    const NodeIndex node(n);
    if (policy.node(node).flavor != flavor || !capacity.schedulable(node)) continue;
    if (open_only && capacity.reserved(node)) continue;
    slots += capacity.free(node).gpu() / per_pod;
  }
  return slots;
}

TEST(CapacityIndexSlots, CountPodsByFreeGpusThroughRandomAllocationsAndReservations) {
  const CompiledPolicy policy = two_flavor_policy();
  const Topology topology(policy);
  std::vector<NodeCondition> conditions(policy.node_count());
  conditions[3].cordoned = true;  // not schedulable: never counted
  CapacityIndex capacity(policy, topology, conditions);
  std::mt19937 random(5);
  struct Held {
    NodeIndex node;
    int64_t gpus;
    uint64_t mask;
  };
  std::vector<Held> held;
  const Timestamp start = Timestamp::from_millis(5'000);
  for (int step = 0; step < 500; ++step) {
    const NodeIndex node(static_cast<int32_t>(random() % policy.node_count()));
    const int64_t want = static_cast<int64_t>(random() % 4) + 1;
    if (random() % 4 == 0) {
      // Reservations come and go, and pass from one workload to another.
      if (random() % 2 == 0) {
        capacity.reserve(node, WorkloadId(1 + random() % 3), start);
      } else {
        capacity.unreserve(node);
      }
    } else if (random() % 3 != 0 && capacity.free(node).gpu() >= want) {
      const uint64_t mask = capacity.pick_gpus(node, want);
      capacity.hold(node, steady_gpus(want), mask);
      held.push_back({node, want, mask});
    } else if (!held.empty()) {
      const size_t k = random() % held.size();
      capacity.release(held[k].node, steady_gpus(held[k].gpus), held[k].mask);
      held.erase(held.begin() + static_cast<std::ptrdiff_t>(k));
    }
    for (FlavorIndex flavor : {kSteadyH100, kA100}) {
      for (int64_t per_pod = 1; per_pod <= 9; ++per_pod) {
        const int64_t counted = slots_by_counting(capacity, policy, flavor, per_pod);
        ASSERT_EQ(capacity.gpu_pod_slots(flavor, per_pod), counted)
            << "step " << step << " per_pod " << per_pod;
        const int64_t open = slots_by_counting(capacity, policy, flavor, per_pod, true);
        for (int64_t pods : {int64_t{1}, counted, counted + 1, open, open + 1, int64_t{64}}) {
          ASSERT_EQ(capacity.has_gpu_pod_slots(flavor, per_pod, pods), counted >= pods);
          ASSERT_EQ(capacity.has_gpu_pod_slots(flavor, per_pod, pods, true), open >= pods);
        }
      }
    }
    for (uint64_t w = 1; w <= 3; ++w) {
      bool any = false;
      for (int32_t n = 0; n < policy.node_count(); ++n) {
        any = any || (capacity.reserved(NodeIndex(n)) &&
                      capacity.reserved_for(NodeIndex(n)) == WorkloadId(w));
      }
      ASSERT_EQ(capacity.holds_reserved_nodes(WorkloadId(w)), any) << "workload " << w;
    }
  }
}

TEST(GangPlacerPreCheck, RefusesAGangThatTheFreeGpuCountsCannotHold) {
  const CompiledPolicy policy = two_flavor_policy();
  const Topology topology(policy);
  CapacityIndex capacity(policy, topology, {});
  // Every a100 node keeps 5 of its 8 GPUs free: 40 GPUs free in the flavor,
  // but no node can take a pod of 6.
  for (int32_t n = 0; n < policy.node_count(); ++n) {
    const NodeIndex node(n);
    if (policy.node(node).flavor == kA100) capacity.hold(node, steady_gpus(3), 0b111);
  }
  ASSERT_EQ(capacity.flavor_free(kA100).gpu(), 40);
  EXPECT_EQ(capacity.gpu_pod_slots(kA100, 6), 0);
  const std::vector<PodSetRequest> big{
      {.count = 2, .min_count = 2, .per_pod = steady_gpus(6), .required_flavor = kA100}};
  const std::vector<int32_t> two{2};
  GangPlacer placer(capacity);
  EXPECT_FALSE(placer.place({WorkloadId(1), kA100, big, two}).has_value());
  // Pods of 5 fit, one to a node: eight of them, not nine.
  const std::vector<PodSetRequest> fives{
      {.count = 8, .min_count = 8, .per_pod = steady_gpus(5), .required_flavor = kA100}};
  const std::vector<int32_t> eight{8};
  const std::vector<int32_t> nine{9};
  EXPECT_TRUE(placer.place({WorkloadId(2), kA100, fives, eight}).has_value());
  EXPECT_FALSE(placer.place({WorkloadId(3), kA100, fives, nine}).has_value());
  // One node reserved for workload 4: work without an end may not use it,
  // workload 4 may, and so may work that ends before the reservation starts.
  NodeIndex first_a100;
  for (int32_t n = 0; n < policy.node_count() && !first_a100.valid(); ++n) {
    if (policy.node(NodeIndex(n)).flavor == kA100) first_a100 = NodeIndex(n);
  }
  const Timestamp start = Timestamp::from_millis(10'000);
  capacity.reserve(first_a100, WorkloadId(4), start);
  EXPECT_FALSE(placer.place({WorkloadId(5), kA100, fives, eight}).has_value());
  EXPECT_TRUE(placer.place({WorkloadId(4), kA100, fives, eight}).has_value());
  EXPECT_TRUE(placer.place({WorkloadId(5), kA100, fives, eight, start}).has_value());
  capacity.unreserve(first_a100);
  EXPECT_TRUE(placer.place({WorkloadId(5), kA100, fives, eight}).has_value());
}

}  // namespace
}  // namespace allot
