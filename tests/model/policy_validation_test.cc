#include <string>

#include <gtest/gtest.h>

#include "model/policy.h"

namespace allot {
namespace {

FlavorQuota quota_of(const std::string& flavor, int64_t gpus) {
  FlavorQuota quota;
  quota.flavor = flavor;
  quota.resources[static_cast<size_t>(Resource::kGpu)].nominal = gpus;
  quota.declared[static_cast<size_t>(Resource::kGpu)] = true;
  return quota;
}

Team team(const std::string& name, const std::string& cohort) {
  Team t;
  t.meta.name = name;
  t.namespace_name = name;
  t.cohort = cohort;
  return t;
}

Cohort cohort(const std::string& name, const std::string& parent = "") {
  Cohort c;
  c.meta.name = name;
  c.parent = parent;
  return c;
}

// A small valid policy: two flavors, an org cohort with a nested one, three teams.
Policy valid_policy() {
  Policy policy;
  Cluster main_cluster;
  main_cluster.meta.name = "main";
  policy.clusters.push_back(main_cluster);
  for (const char* name : {"h100", "a100"}) {
    ResourceFlavor flavor;
    flavor.meta.name = name;
    policy.flavors.push_back(flavor);
  }
  NodePool pool;
  pool.meta.name = "h100-pool";
  pool.cluster = "main";
  pool.flavor = "h100";
  pool.count = 4;
  pool.resources = ResourceVector(8, 96'000, int64_t{1} << 40);
  policy.node_pools.push_back(pool);
  policy.cohorts = {cohort("org"), cohort("research-org", "org")};
  for (const char* name : {"production", "batch"}) {
    PriorityClass priority_class;
    priority_class.meta.name = name;
    policy.priority_classes.push_back(priority_class);
  }
  Team llm = team("llm-training", "org");
  llm.quota = {quota_of("h100", 64), quota_of("a100", 16)};
  llm.allowed_priority_classes = {"production", "batch"};
  Team vision = team("vision", "org");
  vision.quota = {quota_of("h100", 32)};
  Team research = team("research", "research-org");
  research.quota = {quota_of("a100", 8)};
  policy.teams = {llm, vision, research};
  return policy;
}

TEST(PolicyValidation, AcceptsAValidPolicy) {
  const Status status = validate_policy(valid_policy());

  EXPECT_TRUE(status.ok()) << status.to_string();
}

TEST(PolicyValidation, AcceptsAnEmptyPolicy) { EXPECT_TRUE(validate_policy(Policy()).ok()); }

TEST(PolicyValidation, AcceptsATeamWithoutCohort) {
  Policy policy = valid_policy();
  policy.teams[2].cohort.clear();

  EXPECT_TRUE(validate_policy(policy).ok());
}

TEST(PolicyValidation, RejectsAPoolOfAnUnknownFlavor) {
  Policy policy = valid_policy();
  policy.node_pools[0].flavor = "b200";

  const Status status = validate_policy(policy);

  EXPECT_EQ(status.code(), ErrorCode::kNotFound);
  EXPECT_EQ(status.details(), "NodePool/h100-pool.spec.flavor");
  EXPECT_NE(status.message().find("'b200'"), std::string::npos);
}

TEST(PolicyValidation, RejectsAPoolOfAnUnknownCluster) {
  Policy policy = valid_policy();
  policy.node_pools[0].cluster = "edge";

  const Status status = validate_policy(policy);

  EXPECT_EQ(status.code(), ErrorCode::kNotFound);
  EXPECT_EQ(status.details(), "NodePool/h100-pool.spec.cluster");
}

TEST(PolicyValidation, NodeNamesNameEveryNodeOfThePoolOnce) {
  Policy policy = valid_policy();
  policy.node_pools[0].node_names = {"node1", "node2", "node3"};
  NodePool second = policy.node_pools[0];
  second.meta.name = "more";
  second.count = 1;
  second.node_names = {"node1"};

  const Status too_few = validate_policy(policy);
  policy.node_pools[0].node_names.push_back("node4");
  const Status named = validate_policy(policy);
  policy.node_pools.push_back(second);
  const Status twice = validate_policy(policy);

  EXPECT_EQ(too_few.details(), "NodePool/h100-pool.spec.nodeNames");
  EXPECT_EQ(too_few.message(), "nodeNames names 3 nodes but count is 4");
  EXPECT_TRUE(named.ok()) << named.to_string();
  EXPECT_EQ(twice.message(), "node 'node1' is named twice");
  EXPECT_EQ(twice.details(), "NodePool/more.spec.nodeNames");
}

TEST(PolicyValidation, RejectsAQuotaOfAnUnknownFlavor) {
  Policy policy = valid_policy();
  policy.teams[0].quota[1].flavor = "tpu";

  const Status status = validate_policy(policy);

  EXPECT_EQ(status.code(), ErrorCode::kNotFound);
  EXPECT_EQ(status.details(), "Team/llm-training.spec.quota[1].flavor");
}

TEST(PolicyValidation, RejectsAFlavorListedTwiceInAQuota) {
  Policy policy = valid_policy();
  policy.teams[1].quota.push_back(quota_of("h100", 1));

  const Status status = validate_policy(policy);

  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.details(), "Team/vision.spec.quota[1].flavor");
}

TEST(PolicyValidation, RejectsACohortQuotaOfAnUnknownFlavor) {
  Policy policy = valid_policy();
  policy.cohorts[0].quota = {quota_of("v100", 4)};

  const Status status = validate_policy(policy);

  EXPECT_EQ(status.code(), ErrorCode::kNotFound);
  EXPECT_EQ(status.details(), "Cohort/org.spec.quota[0].flavor");
}

TEST(PolicyValidation, RejectsATeamInAnUnknownCohort) {
  Policy policy = valid_policy();
  policy.teams[1].cohort = "nobody";

  const Status status = validate_policy(policy);

  EXPECT_EQ(status.code(), ErrorCode::kNotFound);
  EXPECT_EQ(status.details(), "Team/vision.spec.cohort");
  EXPECT_NE(status.message().find("'nobody'"), std::string::npos);
}

TEST(PolicyValidation, RejectsACohortWithAnUnknownParent) {
  Policy policy = valid_policy();
  policy.cohorts[1].parent = "holding";

  const Status status = validate_policy(policy);

  EXPECT_EQ(status.code(), ErrorCode::kNotFound);
  EXPECT_EQ(status.details(), "Cohort/research-org.spec.parent");
}

TEST(PolicyValidation, RejectsACohortThatIsItsOwnParent) {
  Policy policy = valid_policy();
  policy.cohorts[0].parent = "org";

  const Status status = validate_policy(policy);

  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.details(), "Cohort/org.spec.parent");
  EXPECT_NE(status.message().find("own ancestor"), std::string::npos);
}

TEST(PolicyValidation, RejectsACycleOfCohorts) {
  Policy policy = valid_policy();
  policy.cohorts[0].parent = "research-org";  // org -> research-org -> org

  const Status status = validate_policy(policy);

  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.details(), "Cohort/org.spec.parent");
}

TEST(PolicyValidation, NamesTheCohortOnACycleAboveAnother) {
  Policy policy = valid_policy();
  // root -> a -> b -> a: the cycle does not pass through `root`, checked first.
  policy.cohorts = {cohort("root", "a"), cohort("a", "b"), cohort("b", "a"), cohort("org"),
                    cohort("research-org", "org")};

  const Status status = validate_policy(policy);

  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.message(), "cohort 'a' is its own ancestor");
  EXPECT_EQ(status.details(), "Cohort/a.spec.parent");
}

TEST(PolicyValidation, RejectsTwoTeamsInOneNamespace) {
  Policy policy = valid_policy();
  policy.teams[2].namespace_name = "vision";

  const Status status = validate_policy(policy);

  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.details(), "Team/research.spec.namespace");
  EXPECT_NE(status.message().find("'vision'"), std::string::npos);
}

TEST(PolicyValidation, RejectsAnUnknownAllowedPriorityClass) {
  Policy policy = valid_policy();
  policy.teams[0].allowed_priority_classes = {"production", "urgent"};

  const Status status = validate_policy(policy);

  EXPECT_EQ(status.code(), ErrorCode::kNotFound);
  EXPECT_EQ(status.details(), "Team/llm-training.spec.allowedPriorityClasses[1]");
  EXPECT_NE(status.message().find("'urgent'"), std::string::npos);
}

TEST(PolicyValidation, RejectsDuplicateTeams) {
  Policy policy = valid_policy();
  policy.teams.push_back(team("vision", "org"));

  const Status status = validate_policy(policy);

  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.details(), "Team/vision");
}

TEST(PolicyValidation, RejectsDuplicateNamesOfEveryKind) {
  struct Case {
    void (*duplicate)(Policy&);
    const char* details;
  };
  const Case cases[] = {
      {[](Policy& p) { p.clusters.push_back(p.clusters[0]); }, "Cluster/main"},
      {[](Policy& p) { p.flavors.push_back(p.flavors[1]); }, "ResourceFlavor/a100"},
      {[](Policy& p) { p.node_pools.push_back(p.node_pools[0]); }, "NodePool/h100-pool"},
      {[](Policy& p) { p.cohorts.push_back(p.cohorts[0]); }, "Cohort/org"},
      {[](Policy& p) { p.priority_classes.push_back(p.priority_classes[1]); },
       "PriorityClass/batch"},
  };
  for (const Case& c : cases) {
    Policy policy = valid_policy();
    c.duplicate(policy);

    const Status status = validate_policy(policy);

    EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument) << c.details;
    EXPECT_EQ(status.details(), c.details);
  }
}

TEST(PolicyValidation, RejectsAnObjectWithoutAName) {
  Policy policy = valid_policy();
  policy.flavors[0].meta.name.clear();

  const Status status = validate_policy(policy);

  EXPECT_EQ(status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(status.details(), "metadata.name");
  EXPECT_NE(status.message().find("ResourceFlavor"), std::string::npos);
}

TEST(Policy, FindsObjectsByName) {
  const Policy policy = valid_policy();

  ASSERT_NE(policy.find_team("vision"), nullptr);
  EXPECT_EQ(policy.find_team("vision")->meta.name, "vision");
  ASSERT_NE(policy.find_team_by_namespace("research"), nullptr);
  EXPECT_EQ(policy.find_team_by_namespace("research")->meta.name, "research");
  ASSERT_NE(policy.find_priority_class("batch"), nullptr);
  EXPECT_EQ(policy.find_priority_class("batch")->meta.name, "batch");
  ASSERT_NE(policy.find_flavor("a100"), nullptr);
  EXPECT_EQ(policy.find_flavor("a100")->meta.name, "a100");
  ASSERT_NE(policy.find_cohort("research-org"), nullptr);
  EXPECT_EQ(policy.find_cohort("research-org")->parent, "org");
}

TEST(Policy, FindsNothingForUnknownNames) {
  const Policy policy = valid_policy();

  EXPECT_EQ(policy.find_team("ops"), nullptr);
  EXPECT_EQ(policy.find_team_by_namespace("ops"), nullptr);
  EXPECT_EQ(policy.find_priority_class("urgent"), nullptr);
  EXPECT_EQ(policy.find_flavor("tpu"), nullptr);
  EXPECT_EQ(policy.find_cohort("holding"), nullptr);
}

}  // namespace
}  // namespace allot
