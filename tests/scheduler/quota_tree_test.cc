// QuotaTree: Kueue's lending/borrowing arithmetic, checked against numbers
// worked out by hand.
#include "scheduler/quota_tree.h"

#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "model/node_inventory.h"
#include "policy_builders.h"
#include "scheduler/fair_share.h"
#include "scheduler/team_ceiling.h"

namespace allot {
namespace {

FlavorQuota gpus(int64_t nominal, std::optional<int64_t> borrow = std::nullopt,
                 std::optional<int64_t> lend = std::nullopt) {
  return testing::gpu_quota("h100", nominal, borrow, lend);
}

// root { mid { a(10, lend 4), b(6, borrow 2) }, c(20) }
CompiledPolicy tree_policy() {
  Policy p;
  ResourceFlavor f;
  f.meta.name = "h100";
  p.flavors = {f};
  Cohort root;
  root.meta.name = "root";
  Cohort mid;
  mid.meta.name = "mid";
  mid.parent = "root";
  p.cohorts = {root, mid};
  auto team = [](const std::string& name, const std::string& cohort, FlavorQuota q) {
    Team t;
    t.meta.name = name;
    t.namespace_name = name;
    t.cohort = cohort;
    t.quota = {std::move(q)};
    return t;
  };
  p.teams = {team("a", "mid", gpus(10, {}, 4)), team("b", "mid", gpus(6, 2)),
             team("c", "root", gpus(20))};
  return CompiledPolicy::compile(p, {}).value();
}

constexpr int32_t kA = 0, kB = 1, kC = 2, kRoot = 3, kMid = 4;
const FlavorIndex kH100(0);
const int32_t kGpu = CompiledPolicy::fr_of(kH100, Resource::kGpu);

TEST(QuotaTree, SubtreeQuotaCountsOnlyWhatChildrenLend) {
  const CompiledPolicy policy = tree_policy();
  QuotaTree tree(policy);
  EXPECT_EQ(tree.guard(kA, kGpu), 6);              // 10 - lendingLimit 4
  EXPECT_EQ(tree.subtree_quota(kMid, kGpu), 10);   // 4 lent by a + 6 by b
  EXPECT_EQ(tree.subtree_quota(kRoot, kGpu), 30);  // 10 + 20
}

TEST(QuotaTree, AvailabilityIncludesWhatAncestorsCanLend) {
  const CompiledPolicy policy = tree_policy();
  QuotaTree tree(policy);
  EXPECT_EQ(tree.available(kA, kGpu), 6 + 30);  // its guard, plus all the root can lend
  EXPECT_EQ(tree.available(kB, kGpu), 8);       // nominal 6 + borrowingLimit 2
  EXPECT_EQ(tree.available(kC, kGpu), 30);
}

TEST(QuotaTree, UsageBeyondGuardPropagatesUpward) {
  const CompiledPolicy policy = tree_policy();
  QuotaTree tree(policy);
  tree.add_usage(TeamIndex(kA), kH100, ResourceVector(8, 0, 0));
  EXPECT_EQ(tree.usage(kMid, kGpu), 2);  // 8 - guard 6
  EXPECT_EQ(tree.usage(kRoot, kGpu), 2);
  EXPECT_EQ(tree.available(kC, kGpu), 28);
  tree.add_usage(TeamIndex(kC), kH100, ResourceVector(25, 0, 0));
  EXPECT_EQ(tree.available(kB, kGpu), 3);  // the root has 30 - 27 = 3 left
  EXPECT_FALSE(tree.fits(TeamIndex(kB), kH100, ResourceVector(4, 0, 0)));
  const QuotaShortfall s = tree.shortfall(TeamIndex(kB), kH100, ResourceVector(4, 0, 0));
  EXPECT_EQ(s.binding_node, kRoot);
  EXPECT_EQ(s.available, 3);
  tree.remove_usage(TeamIndex(kC), kH100, ResourceVector(25, 0, 0));
  EXPECT_EQ(tree.available(kB, kGpu), 8);
}

TEST(QuotaTree, BorrowingLimitBindsAtTheTeam) {
  const CompiledPolicy policy = tree_policy();
  QuotaTree tree(policy);
  const QuotaShortfall s = tree.shortfall(TeamIndex(kB), kH100, ResourceVector(9, 0, 0));
  EXPECT_EQ(s.binding_node, kB);
  EXPECT_TRUE(tree.would_borrow(TeamIndex(kB), kH100, ResourceVector(7, 0, 0)));
  EXPECT_FALSE(tree.would_borrow(TeamIndex(kB), kH100, ResourceVector(6, 0, 0)));
}

TEST(QuotaTree, TheBorrowedPartIsWhatAnAdmissionAddsAboveNominal) {
  const CompiledPolicy policy = tree_policy();
  QuotaTree tree(policy);  // team b: nominal 6 GPUs
  EXPECT_EQ(tree.borrowed_part(TeamIndex(kB), kH100, ResourceVector(4, 0, 0)),
            ResourceVector(0, 0, 0));
  tree.add_usage(TeamIndex(kB), kH100, ResourceVector(4, 0, 0));
  EXPECT_EQ(tree.borrowed_part(TeamIndex(kB), kH100, ResourceVector(3, 0, 0)),
            ResourceVector(1, 0, 0));  // 2 of its own left, 1 borrowed
  tree.add_usage(TeamIndex(kB), kH100, ResourceVector(3, 0, 0));
  EXPECT_EQ(tree.borrowed_part(TeamIndex(kB), kH100, ResourceVector(1, 0, 0)),
            ResourceVector(1, 0, 0));  // already above nominal: all of it borrowed
  // CPUs are not governed here: never counted as borrowed.
  EXPECT_EQ(tree.borrowed_part(TeamIndex(kB), kH100, ResourceVector(0, 5000, 0)),
            ResourceVector(0, 0, 0));
}

TEST(QuotaTree, UngovernedResourcesAlwaysFit) {
  const CompiledPolicy policy = tree_policy();
  QuotaTree tree(policy);
  EXPECT_TRUE(tree.fits(TeamIndex(kC), kH100, ResourceVector(0, 1'000'000, 0)));
}

// team_ceiling.h: what a backend that enforces its own limits must allow.
// usage_mark()/back_to(): after changes undone and back_to(), every
// availability equals that of a tree built afresh with the same usage, also
// after later changes (a new epoch never reuses one stamped during the
// undone changes, whose cached answers were computed with other usage).
// Also the kept over-quota bits (over_quota(), cached by the same epochs).
TEST(QuotaTree, BackToAMarkAnswersAsATreeBuiltAfresh) {
  const CompiledPolicy policy = tree_policy();
  std::mt19937_64 rng(7);
  QuotaTree tree(policy);
  std::vector<int64_t> held(3, 0);  // per team, GPUs
  const auto check = [&](int round, const char* when) {
    QuotaTree fresh(policy);
    for (int32_t t = 0; t < 3; ++t) {
      if (held[t] > 0) fresh.add_usage(TeamIndex(t), kH100, ResourceVector(held[t], 0, 0));
    }
    for (int32_t node : {kA, kB, kC, kRoot, kMid}) {
      ASSERT_EQ(tree.available(node, kGpu), fresh.available(node, kGpu))
          << "round " << round << " " << when << " node " << node;
      // The kept over-quota bits, against the usage read afresh.
      const uint64_t over =
          fresh.usage(node, kGpu) > fresh.subtree_quota(node, kGpu) ? uint64_t{1} << kGpu : 0;
      ASSERT_EQ(tree.over_quota(node), over)
          << "round " << round << " " << when << " over quota, node " << node;
    }
  };
  // During a search's changes, every answer follows the usage.
  const auto over_now = [&](int32_t node) {
    return tree.usage(node, kGpu) > tree.subtree_quota(node, kGpu) ? uint64_t{1} << kGpu : 0;
  };
  int64_t over_flipped = 0;  // answers during the changes other than at the mark
  int64_t cached_during = 0;
  for (int round = 0; round < 300; ++round) {
    const auto team = static_cast<int32_t>(rng() % 3);
    const auto amount = static_cast<int64_t>(1 + rng() % 12);
    if (held[0] + held[1] + held[2] < 40) {  // around the tree's 36 GPUs, under and over
      tree.add_usage(TeamIndex(team), kH100, ResourceVector(amount, 0, 0));
      held[team] += amount;
    } else {
      const int64_t gone = std::min(held[team], amount);
      tree.remove_usage(TeamIndex(team), kH100, ResourceVector(gone, 0, 0));
      held[team] -= gone;
    }
    check(round, "before");  // fills the cache at the mark's epoch
    const uint64_t mark = tree.usage_mark();
    const uint64_t over_at_mark[] = {tree.over_quota(kA), tree.over_quota(kC)};
    std::vector<std::pair<int32_t, int64_t>> taken;  // removals, each put back below
    for (int k = 0; k < 1 + static_cast<int>(rng() % 4); ++k) {
      const auto t = static_cast<int32_t>(rng() % 3);
      const int64_t gone = std::min<int64_t>(held[t], static_cast<int64_t>(rng() % 8));
      tree.remove_usage(TeamIndex(t), kH100, ResourceVector(gone, 0, 0));
      taken.emplace_back(t, gone);
      // Cached at this epoch, with other usage than at the mark.
      const int64_t during = tree.available(kA, kGpu) + tree.available(kMid, kGpu);
      cached_during += gone > 0 && during != 0 ? 1 : 0;
      for (int32_t node : {kA, kB, kC, kRoot, kMid}) {
        ASSERT_EQ(tree.over_quota(node), over_now(node)) << "round " << round << " node " << node;
      }
      over_flipped +=
          tree.over_quota(kA) != over_at_mark[0] || tree.over_quota(kC) != over_at_mark[1];
    }
    for (auto it = taken.rbegin(); it != taken.rend(); ++it) {
      tree.add_usage(TeamIndex(it->first), kH100, ResourceVector(it->second, 0, 0));
    }
    tree.back_to(mark);
    // Asked at the mark, every node's answer is stamped with it again: half
    // the rounds change the usage first, so that answers stamped during the
    // undone changes would be read if a new epoch reused theirs.
    if (rng() % 2 == 0) {
      check(round, "back at the mark");
    } else {
      const auto t = static_cast<int32_t>(rng() % 3);
      const int64_t gone = std::min<int64_t>(held[t], 3);
      tree.remove_usage(TeamIndex(t), kH100, ResourceVector(gone, 0, 0));
      held[t] -= gone;
      check(round, "after the mark");
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
  EXPECT_GT(cached_during, 300);
  EXPECT_GT(over_flipped, 30);
}

TEST(TeamCeiling, IsNominalPlusWhatTheCohortsCanLendWithinTheBorrowingLimit) {
  const CompiledPolicy policy = tree_policy();
  const auto gpu_ceiling = [&](int32_t team) {
    return team_ceiling(policy, TeamIndex(team)).at(0).amount;
  };

  EXPECT_EQ(gpu_ceiling(kA), 36);  // no borrowingLimit: everything, its own 10 included
  EXPECT_EQ(gpu_ceiling(kB), 8);   // 6 + borrowingLimit 2
  EXPECT_EQ(gpu_ceiling(kC), 30);  // 20 + the 4 that a lends + the 6 of b
}

TEST(TeamCeiling, NamesOnlyGovernedResources) {
  const CompiledPolicy policy = tree_policy();

  const std::vector<ResourceCeiling> ceiling = team_ceiling(policy, TeamIndex(kB));

  ASSERT_EQ(ceiling.size(), 1u) << "cpu and memory are declared by no quota";
  EXPECT_EQ(ceiling[0], (ResourceCeiling{kH100, Resource::kGpu, 8}));
}

TEST(FairShare, ShareAfterEqualsTheShareOnceTheUsageIsAdded) {
  const CompiledPolicy policy = tree_policy();
  QuotaTree tree(policy);
  tree.add_usage(TeamIndex(kA), kH100, ResourceVector(9, 0, 0));
  for (int64_t delta : {-3, 0, 2, 5, 11}) {
    for (int32_t node : {kA, kMid}) {
      const double predicted =
          weighted_share_after(tree, node, TeamIndex(kA), kH100, ResourceVector(delta, 0, 0));
      tree.add_usage(TeamIndex(kA), kH100, ResourceVector(delta, 0, 0));
      EXPECT_DOUBLE_EQ(predicted, weighted_share(tree, node)) << "delta " << delta;
      tree.remove_usage(TeamIndex(kA), kH100, ResourceVector(delta, 0, 0));
    }
  }
  // a borrows 9 - 10 = 0 above its subtree quota; mid borrows 3 (its usage 3 beyond a's guard 6).
  EXPECT_DOUBLE_EQ(weighted_share(tree, kA), 0.0);
  EXPECT_GT(weighted_share_after(tree, kA, TeamIndex(kA), kH100, ResourceVector(5, 0, 0)), 0.0);
}

}  // namespace
}  // namespace allot
