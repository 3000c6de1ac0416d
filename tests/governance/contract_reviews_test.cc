// When a contract's review falls due (issue 15, item 5): on its interval
// and on events (a monitoring signal without data among them), for Active
// contracts only, with every reason.
#include "governance/contract_reviews.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "governance/contract_lifecycle.h"

namespace allot {
namespace {

const Timestamp kReviewT0 = Timestamp::from_millis(1'800'000'000'000);

Policy review_policy() {
  Policy policy;
  policy.organizations.push_back({{"acme", {}, {}}, {"public", "internal"}});
  Cluster cluster;
  cluster.meta.name = "main";
  cluster.orchestrator_version = "1.0";
  policy.clusters.push_back(cluster);
  NodePool pool;
  pool.meta.name = "pool";
  pool.cluster = "main";
  pool.count = 2;
  policy.node_pools.push_back(pool);
  for (const char* name : {"a", "b"}) {
    Contract contract;
    contract.meta.name = name;
    contract.spec.cluster.name = "main";
    contract.spec.owners = {"ana", "ops", "bob"};
    contract.spec.review_interval = Duration::hours(24);
    policy.contracts.push_back(contract);
  }
  return policy;
}

std::map<std::string, ContractStatus> review_statuses() {
  ContractStatus status = new_contract_status("ana", kReviewT0);
  status = *contract_transition(status, ContractAction::kApprove, "bob", "ok", kReviewT0);
  const ContractStatus active =
      *contract_transition(status, ContractAction::kActivate, "bob", "go", kReviewT0);
  return {{"a", active}, {"b", status}};  // b is only Approved
}

TEST(ContractReviews, TheIntervalMakesAnActiveContractDueAtItsEnd) {
  const Policy policy = review_policy();
  const auto statuses = review_statuses();
  EXPECT_TRUE(interval_reviews_due(policy, statuses, kReviewT0 + Duration::hours(23)).empty());
  const std::vector<ReviewDue> due =
      interval_reviews_due(policy, statuses, kReviewT0 + Duration::hours(24));
  ASSERT_EQ(due.size(), 1u) << "b is not Active";
  EXPECT_EQ(due[0].contract, "a");
}

TEST(ContractReviews, EventsMakeItDueWithEveryReason) {
  const Policy before = review_policy();
  const auto statuses = review_statuses();
  EXPECT_TRUE(event_reviews_due(before, before, statuses).empty());
  Policy after = before;
  after.contracts[0].spec.owners.cost = "carol";
  after.node_pools[0].count = 3;
  after.clusters[0].orchestrator_version = "1.1";
  const std::vector<ReviewDue> due = event_reviews_due(before, after, statuses);
  ASSERT_EQ(due.size(), 1u);
  EXPECT_EQ(due[0].reason,
            "its spec changed (owners); cluster main's capacity changed; cluster main's "
            "orchestrator version changed from '1.0' to '1.1'");
  Policy levels = before;
  levels.organizations[0].data_classifications.push_back("restricted");
  ASSERT_EQ(event_reviews_due(before, levels, statuses).size(), 1u);
  EXPECT_EQ(event_reviews_due(before, levels, statuses)[0].reason,
            "the Organization's data classifications changed");
}

TEST(ContractReviews, OnlyOwnersRolesClassificationAndWebhookMayChangeInForce) {
  ContractSpec before;
  before.owners = {"ana", "ops", "bob"};
  ContractSpec after = before;
  EXPECT_FALSE(reviewable_spec_change(before, after)) << "nothing changed";
  after.access_role = "team-admin";
  after.data_classification = "internal";
  EXPECT_EQ(reviewable_spec_change(before, after), "accessRole, dataClassification");
  after.monitoring_signals = {"spend"};
  EXPECT_EQ(reviewable_spec_change(before, after),
            "accessRole, dataClassification, monitoringSignals");
  after.namespaces = {"other"};
  EXPECT_FALSE(reviewable_spec_change(before, after)) << "namespaces may not change in force";
}

TEST(ContractReviews, AMonitoringSignalWithoutDataMakesTheActiveContractsNamingItDue) {
  Policy policy = review_policy();
  policy.contracts[0].spec.monitoring_signals = {"spend", "queue", "nodes"};
  policy.contracts[1].spec.monitoring_signals = {"spend"};
  const auto statuses = review_statuses();
  EXPECT_TRUE(coverage_reviews_due(policy, statuses, {}).empty());
  EXPECT_TRUE(coverage_reviews_due(policy, statuses, {"other"}).empty());
  const std::vector<ReviewDue> due = coverage_reviews_due(policy, statuses, {"nodes", "spend"});
  ASSERT_EQ(due.size(), 1u) << "b names spend but is only Approved";
  EXPECT_EQ(due[0].contract, "a");
  EXPECT_EQ(due[0].reason,
            "monitoring coverage dropped: signal spend has no data; signal nodes has no data");
}

}  // namespace
}  // namespace allot
