// Issue 15, item 6, the pure part: the policy with its PolicyExceptions
// applied at a time: each kind of relaxation for its team only, and none
// once expired (the expiry is exclusive).
#include "governance/policy_exceptions.h"

#include <gtest/gtest.h>

#include "governance/contract_admission.h"
#include "governance/contract_lifecycle.h"

namespace allot {
namespace {

const Timestamp kExceptionT0 = Timestamp::from_millis(1'800'000'000'000);

Team exception_test_team(const std::string& name, int64_t gpus) {
  Team team;
  team.meta.name = name;
  team.namespace_name = name;
  FlavorQuota quota;
  quota.flavor = "h100";
  quota.resources[static_cast<size_t>(Resource::kGpu)].nominal = gpus;
  quota.declared[static_cast<size_t>(Resource::kGpu)] = true;
  team.quota.push_back(quota);
  team.allowed_priority_classes = {"normal"};
  return team;
}

Policy exception_test_policy() {
  Policy policy;
  policy.teams = {exception_test_team("vision", 4), exception_test_team("prod", 8)};
  policy.organizations.push_back({{"acme", {}, {}}, {"public", "internal", "confidential"}});
  Cluster cluster;
  cluster.meta.name = "main";
  cluster.max_data_classification = "internal";
  policy.clusters.push_back(cluster);
  Contract contract;
  contract.meta.name = "vision-main";
  contract.spec.cluster.name = "main";
  contract.spec.namespaces = {"vision"};
  contract.spec.approved_workload_kinds = {WorkloadKind::kTrainingJob};
  contract.spec.data_classification = "confidential";
  policy.contracts.push_back(contract);
  return policy;
}

PolicyException exception_for(const std::string& name, ExceptionTarget target, Timestamp expires) {
  PolicyException exception;
  exception.meta.name = name;
  exception.spec.team = "vision";
  exception.spec.target = target;
  exception.spec.owner = "ana";
  exception.spec.approver = "bob";
  exception.spec.reason = "deadline";
  exception.spec.expires = expires;
  return exception;
}

int64_t gpu_nominal(const Policy& policy, const std::string& team, size_t flavor = 0) {
  return policy.find_team(team)->quota.at(flavor).of(Resource::kGpu).nominal;
}

TEST(PolicyExceptions, AQuotaExceptionAddsItsAmountUntilItExpires) {
  Policy policy = exception_test_policy();
  const Timestamp expires = kExceptionT0 + Duration::hours(24);
  PolicyException more = exception_for("burst", ExceptionTarget::kQuota, expires);
  more.spec.quota.flavor = "h100";
  more.spec.quota.amounts[static_cast<size_t>(Resource::kGpu)] = 2;
  PolicyException other = more;
  other.meta.name = "a100";
  other.spec.quota.flavor = "a100";
  policy.exceptions = {more, other};

  const Policy during = policy_with_exceptions(policy, kExceptionT0);
  EXPECT_EQ(gpu_nominal(during, "vision"), 6);
  EXPECT_EQ(gpu_nominal(during, "prod"), 8) << "another team is untouched";
  ASSERT_EQ(during.find_team("vision")->quota.size(), 2u);
  EXPECT_EQ(during.find_team("vision")->quota[1].flavor, "a100") << "a new flavor comes last";
  EXPECT_EQ(gpu_nominal(during, "vision", 1), 2);
  EXPECT_TRUE(during.find_team("vision")->quota[1].declared[static_cast<size_t>(Resource::kGpu)]);
  EXPECT_EQ(during.exceptions, policy.exceptions);

  EXPECT_EQ(gpu_nominal(policy_with_exceptions(policy, expires - Duration::millis(1)), "vision"),
            6);
  const Policy after = policy_with_exceptions(policy, expires);
  EXPECT_EQ(gpu_nominal(after, "vision"), 4) << "expired at its expiry";
  EXPECT_EQ(after.find_team("vision")->quota.size(), 1u);
  EXPECT_EQ(active_exception_names(policy, kExceptionT0),
            (std::vector<std::string>{"burst", "a100"}));
  EXPECT_TRUE(active_exception_names(policy, expires).empty());
}

TEST(PolicyExceptions, APriorityClassExceptionWidensTheAllowedClasses) {
  Policy policy = exception_test_policy();
  PolicyException urgent =
      exception_for("urgent", ExceptionTarget::kPriorityClass, kExceptionT0 + Duration::hours(1));
  urgent.spec.priority_class = "high";
  policy.exceptions = {urgent};

  const Policy during = policy_with_exceptions(policy, kExceptionT0);
  EXPECT_EQ(during.find_team("vision")->allowed_priority_classes,
            (std::vector<std::string>{"normal", "high"}));
  EXPECT_EQ(during.find_team("prod")->allowed_priority_classes, std::vector<std::string>{"normal"});
  EXPECT_EQ(policy_with_exceptions(policy, kExceptionT0 + Duration::hours(1))
                .find_team("vision")
                ->allowed_priority_classes,
            std::vector<std::string>{"normal"});
}

TEST(PolicyExceptions, KindAndClassificationExceptionsLiftTheContractRefusals) {
  Policy policy = exception_test_policy();
  const Timestamp expires = kExceptionT0 + Duration::hours(2);
  PolicyException kind = exception_for("jobs", ExceptionTarget::kWorkloadKind, expires);
  kind.spec.workload_kind = WorkloadKind::kJob;
  PolicyException level = exception_for("level", ExceptionTarget::kDataClassification, expires);
  level.spec.data_classification = "confidential";
  std::map<std::string, ContractStatus> statuses;
  ContractStatus status = new_contract_status("ana", kExceptionT0);
  status = *contract_transition(status, ContractAction::kApprove, "bob", "ok", kExceptionT0);
  statuses["vision-main"] =
      *contract_transition(status, ContractAction::kActivate, "bob", "go", kExceptionT0);
  const auto refusal = [&](const Policy& p, WorkloadKind k) {
    const std::optional<ContractVerdict> verdict =
        contract_refusal(p, statuses, "vision", k, kExceptionT0);
    return verdict ? std::string(contract_refusal_name(verdict->reason)) : std::string("none");
  };

  EXPECT_EQ(refusal(policy, WorkloadKind::kTrainingJob), "ClassificationAboveCluster");
  policy.exceptions = {level};
  EXPECT_EQ(refusal(policy_with_exceptions(policy, kExceptionT0), WorkloadKind::kTrainingJob),
            "none");
  EXPECT_EQ(refusal(policy_with_exceptions(policy, kExceptionT0), WorkloadKind::kJob),
            "KindNotApproved");
  policy.exceptions = {level, kind};
  EXPECT_EQ(refusal(policy_with_exceptions(policy, kExceptionT0), WorkloadKind::kJob), "none");
  EXPECT_EQ(refusal(policy_with_exceptions(policy, expires), WorkloadKind::kTrainingJob),
            "ClassificationAboveCluster")
      << "expired";

  // A level below the contract's lifts nothing.
  level.spec.data_classification = "internal";
  policy.exceptions = {level};
  EXPECT_EQ(refusal(policy_with_exceptions(policy, kExceptionT0), WorkloadKind::kTrainingJob),
            "ClassificationAboveCluster");
}

TEST(PolicyExceptions, ExpiringWithinAWindowOnlyWhileActive) {
  const PolicyException soon =
      exception_for("soon", ExceptionTarget::kQuota, kExceptionT0 + Duration::hours(24 * 3));
  EXPECT_TRUE(exception_expiring(soon, kExceptionT0, Duration::hours(24 * 7)));
  EXPECT_FALSE(exception_expiring(soon, kExceptionT0, Duration::hours(24)));
  EXPECT_FALSE(
      exception_expiring(soon, kExceptionT0 + Duration::hours(24 * 3), Duration::hours(24 * 7)))
      << "already expired";
}

}  // namespace
}  // namespace allot
