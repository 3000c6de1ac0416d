// Policy limits (model/policy_limits.h): what validate_policy() refuses so
// that no policy can overflow the scheduler's sums or reach a check (issue 10:
// 8,193 nodes of 1Pi memory, nodesPerRack 8,200).
#include "model/policy_limits.h"

#include <string>

#include <gtest/gtest.h>

namespace allot {
namespace {

constexpr int64_t kGi = int64_t{1} << 30;
constexpr int64_t kPi = int64_t{1} << 50;

Policy with_pool(int32_t count, int64_t memory, PoolTopology topology = {}) {
  Policy policy;
  ResourceFlavor flavor;
  flavor.meta.name = "h100";
  policy.flavors = {flavor};
  NodePool pool;
  pool.meta.name = "big";
  pool.flavor = "h100";
  pool.count = count;
  pool.resources = ResourceVector(8, 96'000, memory);
  pool.topology = topology;
  policy.node_pools = {pool};
  return policy;
}

TEST(PolicyLimits, NodesWhoseMemoryOverflowsAreRefusedNamingTheField) {
  const Status status = check_policy_limits(with_pool(8'193, kPi));

  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.details(), "NodePool/big.spec.resources.memory");
  EXPECT_NE(status.message().find("more than 2^60"), std::string::npos) << status.message();
  EXPECT_EQ(validate_policy(with_pool(8'193, kPi)).code(), ErrorCode::kInvalidArgument)
      << "validate_policy() checks the limits";
}

TEST(PolicyLimits, ALargeRealClusterFits) {
  EXPECT_TRUE(check_policy_limits(with_pool(65'536, 2'048 * kGi, {18, 8})).ok());
}

TEST(PolicyLimits, TooManyNodesOrTooWideATopologyIsRefused) {
  EXPECT_EQ(check_policy_limits(with_pool(65'537, kGi)).details(), "NodePool/big.spec.count");
  EXPECT_EQ(check_policy_limits(with_pool(10, kGi, {8'200, 1})).details(),
            "NodePool/big.spec.topology.nodesPerRack");
  EXPECT_EQ(check_policy_limits(with_pool(10, kGi, {8, 5'000})).details(),
            "NodePool/big.spec.topology.racksPerBlock");
}

TEST(PolicyLimits, QuotasThatTogetherOverflowAreRefused) {
  Policy policy = with_pool(1, kGi);
  for (int i = 0; i < 2'000; ++i) {
    Team team;
    team.meta.name = "t" + std::to_string(i);
    FlavorQuota quota;
    quota.flavor = "h100";
    quota.resources[static_cast<size_t>(Resource::kMemory)].nominal = kPi;
    quota.declared[static_cast<size_t>(Resource::kMemory)] = true;
    team.quota = {quota};
    policy.teams.push_back(team);
  }

  const Status status = check_policy_limits(policy);

  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.details(), "Team/t1024.spec.quota") << "2^50 each: the 1025th passes 2^60";
}

TEST(PolicyLimits, TooManyTeamsAreRefused) {
  Policy policy = with_pool(1, kGi);
  for (int i = 0; i <= kMaxPolicyTeams; ++i) {
    Team team;
    team.meta.name = "t" + std::to_string(i);
    policy.teams.push_back(team);
  }

  const Status status = check_policy_limits(policy);

  EXPECT_NE(status.message().find("teams: at most 4096 (this policy: 4097)"), std::string::npos)
      << status.message();
}

}  // namespace
}  // namespace allot
