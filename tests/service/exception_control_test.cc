// PolicyExceptions through the control plane on a manual clock (issue 15,
// item 6): a quota exception lets a team hold more until it expires; past its
// expiry the next cycle plans under the policy without it (the team loses the
// extra quota; running work runs on; the expiry is audited); a priority class granted by an
// exception; a workload kind an Active contract does not approve, admitted
// while an exception lasts (the contract gate sees the exceptions too);
// apply refusing an exception its owner approved, one applied by someone
// other than its approver, or one naming what does not exist; a team's roles
// reading its own exceptions only.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "exception_fixture.h"

namespace allot::testing {
namespace {

using ExceptionControl = ExceptionFixture;

TEST_F(ExceptionControl, AQuotaExceptionExpiringMidRunIsGoneAtTheNextCycle) {
  std::vector<governance::AuditEvent> audited;
  audit_sink_ = [&audited](governance::AuditEvent event) { audited.push_back(std::move(event)); };
  restart();
  apply_policy(std::string(kLoneTeamPolicy) + "---\n" +
               exception_yaml("burst", "{quota: {flavor: gpu, resources: {gpu: 8}}}",
                              "2027-01-15T09:00:00Z"));
  const uint64_t r1 = submit(workload_yaml("r1", "research", 8), "research");
  const uint64_t r2 = submit(workload_yaml("r2", "research", 8), "research");
  plane_->loop().run_once();
  EXPECT_TRUE(holds("r1"));
  EXPECT_TRUE(holds("r2")) << "16 GPUs: 8 of quota and 8 of the exception";
  ASSERT_NE(r1, 0u);

  // One millisecond before the expiry the exception still applies.
  exit_pods(r2, 0);
  clock_.advance(Duration::hours(1) - Duration::millis(1));
  const uint64_t r3 = submit(workload_yaml("r3", "research", 8), "research");
  plane_->loop().run_once();
  EXPECT_TRUE(holds("r3"));

  // At the expiry: the next cycle plans under 8 GPUs of quota.
  exit_pods(r3, 0);
  clock_.advance(Duration::millis(1));
  submit(workload_yaml("r4", "research", 8), "research");
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "r4"), "Pending");
  const Result<nlohmann::json> r4 = calls_->get_workload("research", "r4");
  ASSERT_TRUE(r4.ok());
  EXPECT_EQ((*r4)["status"]["explanation"]["reason"], "QuotaExhausted") << r4->dump();
  EXPECT_TRUE(holds("r1")) << "running work runs on";
  const auto expired = std::find_if(audited.begin(), audited.end(),
                                    [](const auto& event) { return event.verb == "expire"; });
  ASSERT_NE(expired, audited.end()) << "the expiry is in the audit log";
  ASSERT_TRUE(expired->object_ref.has_value());
  EXPECT_EQ(expired->object_ref->resource, "policyexceptions");
  EXPECT_EQ(expired->object_ref->name, "burst");
  EXPECT_EQ(expired->username, "system:allotd");
  EXPECT_EQ(expired->request_received, clock_.now());
  EXPECT_EQ(std::count_if(audited.begin(), audited.end(),
                          [](const auto& event) { return event.verb == "expire"; }),
            1);

  // r1 ends: r4 fits the 8 GPUs of quota alone.
  exit_pods(r1, 0);
  plane_->loop().run_once();
  EXPECT_TRUE(holds("r4"));
}

TEST_F(ExceptionControl, APriorityClassExceptionAdmitsItsClassUntilItExpires) {
  apply_policy(std::string(kLoneTeamPolicy) + "---\n" +
               exception_yaml("urgent", "{priorityClass: urgent}", "2027-01-15T08:30:00Z"));
  const uint64_t u1 = submit(workload_yaml("u1", "research", 1, 1, "urgent"), "research");
  submit(workload_yaml("u2", "research", 8, 1, "urgent"), "research");
  plane_->loop().run_once();
  EXPECT_TRUE(holds("u1"));
  EXPECT_EQ(phase("research", "u2"), "Pending") << "8 GPUs of quota, 1 held";

  clock_.advance(Duration::minutes(30));
  plane_->loop().run_once();
  // u2 waited under the exception: now the policy cannot run it, even once
  // the quota is free.
  exit_pods(u1, 0);
  EXPECT_EQ(phase("research", "u2"), "Pending");
  const Result<nlohmann::json> u2 = calls_->get_workload("research", "u2");
  ASSERT_TRUE(u2.ok());
  EXPECT_EQ((*u2)["status"]["explanation"]["reason"], "Unschedulable") << u2->dump();
  EXPECT_NE((*u2)["status"]["explanation"]["message"].get<std::string>().find("urgent"),
            std::string::npos)
      << u2->dump();
  const Result<std::string> refused =
      calls_->create_workload("research", workload_yaml("u2", "research", 1, 1, "urgent"));
  EXPECT_FALSE(refused.ok()) << "the class is no longer allowed";
  EXPECT_NE(refused.status().message().find("urgent"), std::string::npos)
      << refused.status().to_string();
}

constexpr const char* kExceptionGovernance = R"(
---
apiVersion: allot/v1
kind: Organization
metadata: {name: acme}
spec: {dataClassifications: [public, internal]}
---
apiVersion: allot/v1
kind: ClusterRoleBinding
metadata: {name: approvers}
subjects: [{kind: User, name: ana}, {kind: User, name: bob}]
roleRef: {kind: ClusterRole, name: contract-approver}
)";

constexpr const char* kTrainingOnlyContract = R"(apiVersion: allot/v1
kind: Contract
metadata: {name: research-local}
spec:
  project: research
  owners: {business: ana, operations: ana, cost: bob}
  cluster: {name: local}
  approvedWorkloadKinds: [TrainingJob]
  dataClassification: public
  namespaces: [research]
  schedulingPolicyOwner: bob
  exceptionOwner: ana
)";

TEST_F(ExceptionControl, AWorkloadKindExceptionLetsTheContractAdmitItUntilItExpires) {
  for (const char* user : {"ana", "bob"}) {
    ASSERT_TRUE(plane_->scim().create(scim::ResourceKind::kUser, {{"userName", user}}).ok());
  }
  apply_policy(std::string(kLoneTeamPolicy) + kExceptionGovernance);
  apply_policy(kTrainingOnlyContract);
  for (const auto& [who, action] :
       {std::pair{"bob", ContractAction::kApprove}, std::pair{"ana", ContractAction::kActivate}}) {
    ASSERT_TRUE(
        plane_->contracts().transition(Principal::user(who), "research-local", action, "ok").ok());
  }
  const Result<std::string> before =
      calls_->create_workload("research", workload_yaml("j1", "research", 1));
  EXPECT_EQ(before.status().code(), ErrorCode::kFailedPrecondition);
  EXPECT_NE(before.status().message().find("KindNotApproved"), std::string::npos)
      << before.status().to_string();

  apply_policy(exception_yaml("jobs", "{workloadKind: Job}", "2027-01-15T09:00:00Z"));
  submit(workload_yaml("j2", "research", 1), "research");
  plane_->loop().run_once();
  EXPECT_TRUE(holds("j2"));

  clock_.advance(Duration::hours(1));
  plane_->loop().run_once();
  const Result<std::string> after =
      calls_->create_workload("research", workload_yaml("j3", "research", 1));
  EXPECT_EQ(after.status().code(), ErrorCode::kFailedPrecondition) << "expired";
  EXPECT_NE(after.status().message().find("KindNotApproved"), std::string::npos)
      << after.status().to_string();
}

TEST_F(ExceptionControl, ApplyRefusesAnExceptionItsOwnerApprovedOrNamingWhatIsMissing) {
  apply_policy(kLoneTeamPolicy);
  const Result<ApplyResult> self = calls_->apply(
      exception_yaml("mine", "{priorityClass: urgent}", "2027-01-16T00:00:00Z", "ana"), false);
  EXPECT_EQ(self.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(self.status().details(), "PolicyException/mine.spec.approver")
      << self.status().to_string();
  const Result<ApplyResult> flavor =
      calls_->apply(exception_yaml("more", "{quota: {flavor: h100, resources: {gpu: 1}}}",
                                   "2027-01-16T00:00:00Z"),
                    false);
  EXPECT_FALSE(flavor.ok());
  EXPECT_EQ(flavor.status().details(), "PolicyException/more.spec.relaxes.quota.flavor")
      << flavor.status().to_string();
  // A named person applies only what they approve themselves.
  const Result<ParsedManifests> parsed = parse_manifests_with_documents(
      exception_yaml("for-bob", "{priorityClass: urgent}", "2027-01-16T00:00:00Z"));
  ASSERT_TRUE(parsed.ok());
  const Result<ApplyResult> other =
      plane_->policies().apply(Principal::user("carol"), *parsed, false);
  EXPECT_EQ(other.status().code(), ErrorCode::kPermissionDenied);
}

TEST_F(ExceptionControl, ATeamsRolesReadItsExceptionsAndNeverAnotherTeams) {
  std::string bindings;
  for (const char* team : {"research", "prod"}) {
    bindings += std::string("---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\n") +
                "metadata: {name: members, namespace: " + team + "}\nsubjects: [{kind: User, " +
                "name: " + team + "-member}]\nroleRef: {apiGroup: rbac.authorization.k8s.io, " +
                "kind: ClusterRole, name: team-member}\n";
  }
  std::string prod_exception = exception_yaml(
      "prod-more", "{quota: {flavor: gpu, resources: {gpu: 4}}}", "2027-01-16T00:00:00Z");
  prod_exception.replace(prod_exception.find("team: research"), 14, "team: prod");
  apply_policy(kTwoTeamPolicy + bindings + "---\n" +
               exception_yaml("research-more", "{quota: {flavor: gpu, resources: {gpu: 4}}}",
                              "2027-01-16T00:00:00Z") +
               "---\n" + prod_exception);
  PolicyService& policies = plane_->policies();
  const auto listed = [&](const std::string& who) {
    std::vector<std::string> names;
    const auto items = policies.list_objects(Principal::user(who), "PolicyException", "");
    EXPECT_TRUE(items.ok()) << who << ": " << items.status().to_string();
    if (items.ok()) {
      for (const PolicyObjectView& item : *items) names.push_back(item.name);
    }
    return names;
  };
  EXPECT_EQ(listed("research-member"), std::vector<std::string>{"research-more"});
  EXPECT_EQ(listed("prod-member"), std::vector<std::string>{"prod-more"});
  EXPECT_TRUE(
      policies.get_object(Principal::user("research-member"), "PolicyException", "research-more")
          .ok());
  EXPECT_EQ(policies.get_object(Principal::user("research-member"), "PolicyException", "prod-more")
                .status()
                .code(),
            ErrorCode::kPermissionDenied);
  // Read, never written, by the team's roles.
  EXPECT_EQ(
      policies.delete_object(Principal::user("research-member"), "PolicyException", "research-more")
          .code(),
      ErrorCode::kPermissionDenied);
  // Someone without a role sees none: the list is refused, not empty.
  EXPECT_EQ(policies.list_objects(Principal::user("nobody"), "PolicyException", "").status().code(),
            ErrorCode::kPermissionDenied);
}

}  // namespace
}  // namespace allot::testing
