// CohortReclaim: hierarchical advantage and candidate validity (Kueue's
// hierarchical reclaim), checked against numbers worked out by hand.
#include "scheduler/cohort_reclaim.h"

#include <gtest/gtest.h>

#include "policy_builders.h"

namespace allot {
namespace {

FlavorQuota reclaim_gpus(int64_t nominal, std::optional<int64_t> borrow = std::nullopt,
                         std::optional<int64_t> lend = std::nullopt) {
  return testing::gpu_quota("h100", nominal, borrow, lend);
}

// root(own 0) { pool(own 8) { q(0), sibling(0) }, outside(0), lender(8) }
CompiledPolicy pool_policy() {
  Policy p;
  ResourceFlavor f;
  f.meta.name = "h100";
  p.flavors = {f};
  Cohort root;
  root.meta.name = "root";
  Cohort pool;
  pool.meta.name = "pool";
  pool.parent = "root";
  pool.quota = {reclaim_gpus(8)};
  p.cohorts = {root, pool};
  auto team = [](const std::string& name, const std::string& cohort, int64_t nominal) {
    Team t;
    t.meta.name = name;
    t.namespace_name = name;
    t.cohort = cohort;
    t.quota = {reclaim_gpus(nominal)};
    return t;
  };
  p.teams = {team("q", "pool", 0), team("sibling", "pool", 0), team("outside", "root", 0),
             team("lender", "root", 8)};
  return CompiledPolicy::compile(p, {}).value();
}

const TeamIndex kQ(0), kSibling(1), kOutside(2), kLender(3);
constexpr int32_t kReclaimRoot = 4, kPool = 5;
const FlavorIndex kReclaimH100(0);
const int32_t kReclaimGpu = CompiledPolicy::fr_of(kReclaimH100, Resource::kGpu);
const ResourceVector kEight(8, 0, 0);

TEST(CohortReclaim, RequestFittingTheCohortPoolHasAdvantageOutsideIt) {
  const CompiledPolicy policy = pool_policy();
  QuotaTree tree(policy);
  tree.add_usage(kOutside, kReclaimH100, kEight);  // outside borrows the pool
  tree.add_usage(kLender, kReclaimH100, kEight);
  const CohortReclaim reclaim(tree, kQ, kReclaimH100, kEight,
                              contested_resources(tree, kQ, kReclaimH100, kEight));
  EXPECT_EQ(reclaim.contested(), std::vector<int32_t>{kReclaimGpu});
  // q's own nominal (0) does not hold 8, the pool's subtree quota (8, unused) does.
  EXPECT_EQ(reclaim.relation_to(kOutside).lca, kReclaimRoot);
  EXPECT_TRUE(reclaim.relation_to(kOutside).advantage);
  EXPECT_EQ(reclaim.relation_to(kSibling).lca, kPool);
  EXPECT_FALSE(reclaim.relation_to(kSibling).advantage);
  EXPECT_TRUE(reclaim.still_above_quota(kOutside, kReclaimRoot));
  EXPECT_FALSE(reclaim.still_above_quota(kLender, kReclaimRoot));  // within its nominal
  EXPECT_FALSE(reclaim.request_within_nominal());
  EXPECT_EQ(reclaim.child_of_lca(kQ.value(), kReclaimRoot), kPool);
  EXPECT_TRUE(reclaim.on_preemptor_path(kPool));
  EXPECT_FALSE(reclaim.on_preemptor_path(kOutside.value()));
}

TEST(CohortReclaim, NoAdvantageWhenThePoolIsInUse) {
  const CompiledPolicy policy = pool_policy();
  QuotaTree tree(policy);
  tree.add_usage(kSibling, kReclaimH100, kEight);  // the sibling holds the pool
  tree.add_usage(kLender, kReclaimH100, kEight);
  const CohortReclaim reclaim(tree, kQ, kReclaimH100, kEight,
                              contested_resources(tree, kQ, kReclaimH100, kEight));
  EXPECT_FALSE(reclaim.relation_to(kOutside).advantage);
  EXPECT_FALSE(reclaim.relation_to(kLender).advantage);
  // The sibling is above its nominal (0) and stays a candidate up to the pool.
  EXPECT_TRUE(reclaim.still_above_quota(kSibling, kPool));
}

TEST(CohortReclaim, CandidateInvalidOnceACohortBelowTheAncestorIsWithinQuota) {
  const CompiledPolicy policy = pool_policy();
  QuotaTree tree(policy);
  tree.add_usage(kSibling, kReclaimH100, ResourceVector(4, 0, 0));  // pool: 4 of 8 used
  const CohortReclaim reclaim(tree, kOutside, kReclaimH100, kEight,
                              contested_resources(tree, kOutside, kReclaimH100, kEight));
  // Seen from outside, the sibling's work is in a cohort within its quota.
  EXPECT_EQ(reclaim.relation_to(kSibling).lca, kReclaimRoot);
  EXPECT_FALSE(reclaim.still_above_quota(kSibling, kReclaimRoot));
  tree.add_usage(kSibling, kReclaimH100, kEight);  // pool: 12 of 8 used
  EXPECT_TRUE(reclaim.still_above_quota(kSibling, kReclaimRoot));
}

TEST(CohortReclaim, ContestedResourcesAreThoseTheRequestDoesNotFit) {
  const CompiledPolicy policy = pool_policy();
  QuotaTree tree(policy);
  // Everything fits: the shortage can only be of nodes, so every requested
  // governed resource counts.
  EXPECT_EQ(contested_resources(tree, kLender, kReclaimH100, kEight),
            std::vector<int32_t>{kReclaimGpu});
  const CohortReclaim reclaim(tree, kLender, kReclaimH100, kEight,
                              contested_resources(tree, kLender, kReclaimH100, kEight));
  EXPECT_TRUE(reclaim.request_within_nominal());
  EXPECT_TRUE(reclaim.preemptor_under_nominal());
}

}  // namespace
}  // namespace allot
