// The pure rules of connection contracts (issue 15, items 3 and 4): the
// lifecycle's transitions and who may make them, the review schedule, and
// the admission verdict for each reason.
#include "governance/contract_lifecycle.h"

#include <gtest/gtest.h>

#include "governance/contract_admission.h"

namespace allot {
namespace {

const Timestamp kT0 = Timestamp::from_millis(1'800'000'000'000);

Policy governed(const std::string& cluster_level) {
  Policy policy;
  policy.organizations.push_back({{"acme", {}, {}}, {"public", "internal", "confidential"}});
  Cluster cluster;
  cluster.meta.name = "main";
  cluster.max_data_classification = cluster_level;
  policy.clusters.push_back(cluster);
  Contract contract;
  contract.meta.name = "c";
  contract.spec.cluster.name = "main";
  contract.spec.namespaces = {"vision"};
  contract.spec.approved_workload_kinds = {WorkloadKind::kTrainingJob};
  contract.spec.data_classification = "internal";
  contract.spec.review_interval = Duration::hours(24);
  contract.spec.review_grace_period = Duration::hours(2);
  policy.contracts.push_back(contract);
  return policy;
}

ContractStatus active_status() {
  ContractStatus status = new_contract_status("ana", kT0);
  status = *contract_transition(status, ContractAction::kApprove, "bob", "ok", kT0);
  return *contract_transition(status, ContractAction::kActivate, "bob", "go", kT0);
}

TEST(ContractLifecycle, EachTransitionFromItsPhaseByAnotherPersonWithAReason) {
  const ContractStatus draft = new_contract_status("ana", kT0);
  EXPECT_EQ(draft.phase, ContractPhase::kDraft);
  const Result<ContractStatus> self =
      contract_transition(draft, ContractAction::kApprove, "ana", "mine", kT0);
  EXPECT_EQ(self.status().code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(contract_transition(draft, ContractAction::kActivate, "bob", "x", kT0).status().code(),
            ErrorCode::kFailedPrecondition);
  EXPECT_EQ(contract_transition(draft, ContractAction::kApprove, "bob", "", kT0).status().details(),
            "reason");
  const ContractStatus active = active_status();
  EXPECT_EQ(active.phase, ContractPhase::kActive);
  EXPECT_EQ(active.approved_by, "bob");
  EXPECT_EQ(active.reviewed_at, kT0);
  ASSERT_EQ(active.history.size(), 3u);
  EXPECT_EQ(active.history[2].from, ContractPhase::kApproved);
  EXPECT_EQ(active.history[2].reason, "go");
  const Timestamp later = kT0 + Duration::hours(5);
  const ContractStatus review =
      *contract_transition(active, ContractAction::kReview, "bob", "due", later);
  EXPECT_EQ(review.phase, ContractPhase::kUnderReview);
  const ContractStatus renewed =
      *contract_transition(review, ContractAction::kRenew, "ana", "fine", later);
  EXPECT_EQ(renewed.phase, ContractPhase::kActive);
  EXPECT_EQ(renewed.reviewed_at, later);
  const ContractStatus revoked =
      *contract_transition(renewed, ContractAction::kRevoke, "bob", "end", later);
  EXPECT_EQ(revoked.phase, ContractPhase::kRevoked);
  EXPECT_FALSE(contract_transition(revoked, ContractAction::kRenew, "bob", "x", later).ok());
  EXPECT_FALSE(contract_transition(revoked, ContractAction::kRevoke, "bob", "x", later).ok());
  EXPECT_EQ(parse_contract_action("revoke"), ContractAction::kRevoke);
  EXPECT_FALSE(parse_contract_action("create"));
}

TEST(ContractAdmission, EveryReasonInItsOrder) {
  const Policy policy = governed("internal");
  std::map<std::string, ContractStatus> statuses;
  const auto reason = [&](const Policy& p, const std::string& ns, WorkloadKind kind, Timestamp at) {
    const std::optional<ContractVerdict> verdict = contract_refusal(p, statuses, ns, kind, at);
    return verdict ? std::string(contract_refusal_name(verdict->reason)) : std::string("admit");
  };
  EXPECT_EQ(reason(policy, "vision", WorkloadKind::kTrainingJob, kT0), "ContractMissing");
  EXPECT_EQ(reason(policy, "other", WorkloadKind::kTrainingJob, kT0), "ContractMissing");
  statuses["c"] = active_status();
  EXPECT_EQ(reason(policy, "vision", WorkloadKind::kTrainingJob, kT0), "admit");
  EXPECT_EQ(reason(policy, "vision", WorkloadKind::kJob, kT0), "KindNotApproved");
  EXPECT_EQ(reason(governed("public"), "vision", WorkloadKind::kTrainingJob, kT0),
            "ClassificationAboveCluster");
  EXPECT_EQ(reason(governed(""), "vision", WorkloadKind::kTrainingJob, kT0),
            "ClassificationAboveCluster")
      << "a cluster without a level holds the lowest only";
  EXPECT_EQ(reason(governed("confidential"), "vision", WorkloadKind::kTrainingJob, kT0), "admit");
  // Due after 24 h, grace 2 h more.
  EXPECT_EQ(reason(policy, "vision", WorkloadKind::kTrainingJob, kT0 + Duration::hours(25)),
            "admit");
  const std::optional<ContractVerdict> overdue = contract_refusal(
      policy, statuses, "vision", WorkloadKind::kTrainingJob, kT0 + Duration::hours(26));
  ASSERT_TRUE(overdue);
  EXPECT_EQ(overdue->reason, ContractRefusal::kReviewOverdue);
  EXPECT_EQ(overdue->review_due, kT0 + Duration::hours(24));
  EXPECT_FALSE(overdue->permanent);
  // No Organization: nothing is enforced.
  Policy ungoverned = policy;
  ungoverned.organizations.clear();
  EXPECT_EQ(reason(ungoverned, "vision", WorkloadKind::kJob, kT0), "admit");
}

}  // namespace
}  // namespace allot
