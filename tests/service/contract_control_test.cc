// Connection contracts through the control plane on a manual clock (issue 15,
// items 2 to 4): an Organization with data classifications, a Contract drafted
// by one person and approved by another (self-approval refused), activated,
// admitting its namespace's work; revoked, so new work waits with
// ContractMissing; a kind the contract does not approve and a classification
// above the cluster's refused at submit; an overdue review; owners that are
// not in the directory; status kept across a restart; installs without an
// Organization unchanged.
#include <string>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"

namespace allot::testing {
namespace {

constexpr const char* kOrganization = R"(
---
apiVersion: allot/v1
kind: Organization
metadata: {name: acme}
spec: {dataClassifications: [public, internal, confidential]}
---
apiVersion: allot/v1
kind: ClusterRoleBinding
metadata: {name: approvers}
subjects: [{kind: User, name: ana}, {kind: User, name: bob}]
roleRef: {kind: ClusterRole, name: contract-approver}
)";

std::string contract_yaml(const std::string& name, const std::string& ns,
                          const std::string& classification = "internal",
                          const std::string& kinds = "[Job, TrainingJob]",
                          const std::string& owner = "ana") {
  return "apiVersion: allot/v1\nkind: Contract\nmetadata: {name: " + name +
         "}\nspec:\n  project: " + ns + "-project\n  owners: {business: " + owner +
         ", operations: ml-ops, cost: bob}\n  cluster: {name: local, orchestrator: local}\n"
         "  projectRole: training\n  accessRole: team-member\n  approvedWorkloadKinds: " +
         kinds + "\n  dataClassification: " + classification + "\n  namespaces: [" + ns +
         "]\n  schedulingPolicyOwner: bob\n  exceptionOwner: ml-ops\n"
         "  terms: {monitoring: dashboards, support: business hours, decommission: 30 days}\n"
         "  reviewInterval: 30d\n  reviewGracePeriod: 7d\n";
}

// kTwoTeamPolicy with the cluster allowed `level`.
std::string governed_policy(const std::string& level = "internal") {
  std::string policy = kTwoTeamPolicy;
  const std::string spec = "spec: {backend: local, scheduling: {cycle: 1s}}";
  policy.replace(
      policy.find(spec), spec.size(),
      "spec: {backend: local, maxDataClassification: " + level + ", scheduling: {cycle: 1s}}");
  return policy + kOrganization;
}

class ContractControl : public ControlPlaneTest {
 protected:
  void SetUp() override {
    for (const char* user : {"ana", "bob"}) {
      ASSERT_TRUE(plane_->scim().create(scim::ResourceKind::kUser, {{"userName", user}}).ok());
    }
    ASSERT_TRUE(
        plane_->scim().create(scim::ResourceKind::kGroup, {{"displayName", "ml-ops"}}).ok());
  }

  Status apply_as(const std::string& who, const std::string& yaml) {
    return apply_by(Principal::user(who), yaml);
  }

  // The cluster admin: only it writes the Organization and the clusters.
  Status apply_as_admin(const std::string& yaml) {
    return apply_by(Principal::anonymous_admin(), yaml);
  }

  Status apply_by(const Principal& caller, const std::string& yaml) {
    const Result<ParsedManifests> parsed = parse_manifests_with_documents(yaml);
    if (!parsed.ok()) return parsed.status();
    return plane_->policies().apply(caller, *parsed, false).status();
  }

  Result<std::string> act(const std::string& who, const std::string& name, ContractAction action,
                          const std::string& reason = "checked") {
    Result<PolicyObjectView> view =
        plane_->contracts().transition(Principal::user(who), name, action, reason);
    if (!view.ok()) return view.status();
    return std::string(contract_phase_name(view->contract->status.phase));
  }

  nlohmann::json explanation(const std::string& ns, const std::string& name) {
    const Result<nlohmann::json> view = calls_->get_workload(ns, name);
    return view.ok() ? (*view)["status"]["explanation"] : nlohmann::json();
  }

  bool holds(const std::string& ns, const std::string& name) {
    const std::string now = phase(ns, name);
    return now == "Admitted" || now == "Running";
  }
};

TEST_F(ContractControl, DraftApproveActivateAdmitRevokeThenNewWorkWaits) {
  apply_policy(governed_policy());
  ASSERT_TRUE(apply_as("ana", contract_yaml("research-local", "research")).ok());

  // Draft: research's work waits, said so; prod has no contract at all.
  submit(workload_yaml("r1", "research", 1), "research");
  submit(workload_yaml("p1", "prod", 1), "prod");
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "r1"), "Pending");
  EXPECT_EQ(explanation("research", "r1")["reason"], "ContractMissing");
  EXPECT_NE(explanation("research", "r1")["message"].get<std::string>().find("Draft"),
            std::string::npos);
  EXPECT_EQ(explanation("prod", "p1")["reason"], "ContractMissing");

  // Ana requested it: she cannot approve it; activating a Draft is refused.
  Result<std::string> self = act("ana", "research-local", ContractAction::kApprove);
  EXPECT_EQ(self.status().code(), ErrorCode::kPermissionDenied) << self.status().to_string();
  EXPECT_EQ(act("bob", "research-local", ContractAction::kActivate).status().code(),
            ErrorCode::kFailedPrecondition);
  EXPECT_EQ(act("bob", "research-local", ContractAction::kApprove, " ").status().code(),
            ErrorCode::kInvalidArgument);
  // Someone without the role cannot either.
  EXPECT_EQ(act("carol", "research-local", ContractAction::kApprove).status().code(),
            ErrorCode::kPermissionDenied);

  EXPECT_EQ(*act("bob", "research-local", ContractAction::kApprove, "data reviewed"), "Approved");
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "r1"), "Pending") << "approved is not active";
  EXPECT_EQ(*act("ana", "research-local", ContractAction::kActivate), "Active");
  clock_.advance(Duration::seconds(1));
  plane_->loop().run_once();
  EXPECT_TRUE(holds("research", "r1"));
  EXPECT_EQ(phase("prod", "p1"), "Pending");

  // The status: phase, who and when, with each step's reason.
  const Result<nlohmann::json> contract = calls_->get_object("Contract", "research-local");
  ASSERT_TRUE(contract.ok());
  const nlohmann::json& status = (*contract)["status"];
  EXPECT_EQ(status["phase"], "Active");
  EXPECT_EQ(status["requestedBy"], "ana");
  EXPECT_EQ(status["approvedBy"], "bob");
  ASSERT_EQ(status["history"].size(), 3u);
  EXPECT_EQ(status["history"][1]["reason"], "data reviewed");
  EXPECT_EQ(status["history"][1]["by"], "bob");
  EXPECT_TRUE(status.contains("reviewDue"));

  // A spec changes only while Draft; a live contract cannot be deleted.
  EXPECT_EQ(apply_as("ana", contract_yaml("research-local", "research", "public")).code(),
            ErrorCode::kFailedPrecondition);
  EXPECT_EQ(plane_->policies()
                .delete_object(Principal::anonymous_admin(), "Contract", "research-local")
                .code(),
            ErrorCode::kFailedPrecondition);

  // Revoked: running work runs on (draining is item 5), new work waits.
  EXPECT_EQ(*act("bob", "research-local", ContractAction::kRevoke, "project ended"), "Revoked");
  submit(workload_yaml("r2", "research", 1), "research");
  clock_.advance(Duration::seconds(1));
  plane_->loop().run_once();
  EXPECT_TRUE(holds("research", "r1"));
  EXPECT_EQ(phase("research", "r2"), "Pending");
  EXPECT_EQ(explanation("research", "r2")["reason"], "ContractMissing");
  EXPECT_EQ(act("bob", "research-local", ContractAction::kRenew).status().code(),
            ErrorCode::kFailedPrecondition);

  // The status survives a restart.
  restart();
  const Result<nlohmann::json> reloaded = calls_->get_object("Contract", "research-local");
  ASSERT_TRUE(reloaded.ok());
  EXPECT_EQ((*reloaded)["status"]["phase"], "Revoked");
  EXPECT_EQ((*reloaded)["status"]["history"].size(), 4u);
}

TEST_F(ContractControl, AKindNotApprovedOrAClassificationAboveTheClusterIsRefusedAtSubmit) {
  apply_policy(governed_policy("internal"));
  ASSERT_TRUE(apply_as("ana", contract_yaml("r", "research", "internal", "[TrainingJob]")).ok());
  ASSERT_TRUE(apply_as("ana", contract_yaml("p", "prod", "confidential")).ok());
  for (const char* name : {"r", "p"}) {
    ASSERT_TRUE(act("bob", name, ContractAction::kApprove).ok());
    ASSERT_TRUE(act("bob", name, ContractAction::kActivate).ok());
  }
  const Result<std::string> job =
      calls_->create_workload("research", workload_yaml("j", "research", 1));
  EXPECT_EQ(job.status().code(), ErrorCode::kFailedPrecondition);
  EXPECT_NE(job.status().message().find("KindNotApproved"), std::string::npos)
      << job.status().to_string();
  EXPECT_EQ(job.status().details(), "spec.kind");
  submit(workload_yaml("t", "research", 1, 1, "low", "  kind: TrainingJob\n"), "research");

  const Result<std::string> secret = calls_->create_workload("prod", workload_yaml("s", "prod", 1));
  EXPECT_NE(secret.status().message().find("ClassificationAboveCluster"), std::string::npos)
      << secret.status().to_string();
  plane_->loop().run_once();
  EXPECT_TRUE(holds("research", "t"));

  // The cluster raised to confidential: prod's work runs.
  apply_policy(governed_policy("confidential"));
  submit(workload_yaml("s", "prod", 1), "prod");
  clock_.advance(Duration::seconds(1));
  plane_->loop().run_once();
  EXPECT_TRUE(holds("prod", "s"));
}

TEST_F(ContractControl, AnOverdueReviewStopsNewAdmissionsUntilRenewed) {
  apply_policy(governed_policy());
  ASSERT_TRUE(apply_as("ana", contract_yaml("r", "research")).ok());
  ASSERT_TRUE(act("bob", "r", ContractAction::kApprove).ok());
  ASSERT_TRUE(act("bob", "r", ContractAction::kActivate).ok());
  // Due after 30 days, grace 7 more: at day 36 still admitted.
  clock_.advance(Duration::hours(24 * 36));
  submit(workload_yaml("a", "research", 1), "research");
  plane_->loop().run_once();
  EXPECT_TRUE(holds("research", "a"));
  EXPECT_EQ(*act("bob", "r", ContractAction::kReview, "annual review"), "UnderReview");
  clock_.advance(Duration::hours(24 * 2));
  submit(workload_yaml("b", "research", 1), "research");
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "b"), "Pending");
  EXPECT_EQ(explanation("research", "b")["reason"], "ReviewOverdue");
  EXPECT_EQ(*act("ana", "r", ContractAction::kRenew, "still needed"), "Active");
  clock_.advance(Duration::seconds(1));
  plane_->loop().run_once();
  EXPECT_TRUE(holds("research", "b"));
}

TEST_F(ContractControl, BadContractsAreRefusedNamingTheField) {
  apply_policy(governed_policy());
  const Status owner = apply_as("ana", contract_yaml("r", "research", "internal", "[Job]", "zed"));
  EXPECT_EQ(owner.code(), ErrorCode::kNotFound);
  EXPECT_NE(owner.details().find("spec.owners.business"), std::string::npos) << owner.to_string();
  const Status level = apply_as("ana", contract_yaml("r", "research", "secret"));
  EXPECT_NE(level.details().find("spec.dataClassification"), std::string::npos)
      << level.to_string();
  const Status ns = apply_as("ana", contract_yaml("r", "nowhere"));
  EXPECT_NE(ns.details().find("spec.namespaces[0]"), std::string::npos) << ns.to_string();
  const Status org = apply_as_admin(
      "apiVersion: allot/v1\nkind: Organization\nmetadata: {name: other}\n"
      "spec: {dataClassifications: [public]}\n");
  EXPECT_NE(org.message().find("one Organization per installation"), std::string::npos)
      << org.to_string();
  const Status cluster = apply_as_admin(governed_policy("secret"));
  EXPECT_NE(cluster.details().find("maxDataClassification"), std::string::npos)
      << cluster.to_string();
}

TEST_F(ContractControl, WithoutAnOrganizationNothingIsEnforced) {
  apply_policy();
  submit(workload_yaml("r1", "research", 1), "research");
  plane_->loop().run_once();
  EXPECT_TRUE(holds("research", "r1"));
  const Status contract = apply_as_admin(contract_yaml("r", "research"));
  EXPECT_EQ(contract.code(), ErrorCode::kInvalidArgument) << contract.to_string();
  EXPECT_NE(contract.message().find("Organization"), std::string::npos) << contract.to_string();
}

// The usage report's project dimension (docs/cost.md): research's and prod's
// work ran for an hour before any governance; once contract research-local
// names namespace research, that hour of research's 2 GPUs (2 GPU-h) is the
// contract's and prod's 1 GPU-h, in no contract's namespace, is the row
// without a project.
TEST_F(ContractControl, UsageByProjectIsTheContractHoldingTheWorkloadsNamespace) {
  apply_policy();
  const Timestamp start = clock_.now();
  submit(workload_yaml("r1", "research", 2), "research");
  submit(workload_yaml("p1", "prod", 1), "prod");
  plane_->loop().run_once();
  ASSERT_TRUE(holds("research", "r1"));
  ASSERT_TRUE(holds("prod", "p1"));
  clock_.advance(Duration::hours(1));
  const Timestamp end = clock_.now();
  ASSERT_TRUE(apply_as_admin(governed_policy()).ok());
  ASSERT_TRUE(apply_as("ana", contract_yaml("research-local", "research")).ok());

  const Result<UsageReportResult> result = plane_->reports().report(
      UsageQuery{start, end, {GroupKey::kProject, GroupKey::kTeam}, IdleMode::kSeparate, {}});
  ASSERT_TRUE(result.ok()) << result.status().to_string();
  const std::vector<UsageRow>& rows = result->report.rows;
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].keys, (std::vector<std::string>{"", "prod"}));
  EXPECT_DOUBLE_EQ(rows[0].figures.sum().own.hours(Resource::kGpu), 1.0);
  EXPECT_EQ(rows[1].keys, (std::vector<std::string>{"research-local", "research"}));
  EXPECT_DOUBLE_EQ(rows[1].figures.sum().own.hours(Resource::kGpu), 2.0);
}

// A Budget of a project (the Contract research-local): research's 4 GPUs ran
// 3 h before governance at 2 EUR per GPU-hour, 24 EUR, above the budget's
// 20; once the contract is active, research's new work waits with
// BudgetExhausted naming the project, while the running work runs on.
TEST_F(ContractControl, AProjectBudgetCountsTheContractsNamespacesAndStopsTheirAdmission) {
  std::string priced = governed_policy();
  const std::string flavor = "metadata: {name: gpu}\n";
  priced.replace(priced.find(flavor), flavor.size(),
                 flavor + "spec: {price: {currency: EUR, gpuHour: 2}}\n");
  std::string ungoverned = kTwoTeamPolicy;
  ungoverned.replace(ungoverned.find(flavor), flavor.size(),
                     flavor + "spec: {price: {currency: EUR, gpuHour: 2}}\n");
  apply_policy(ungoverned);
  submit(workload_yaml("r1", "research", 4), "research");
  plane_->loop().run_once();
  ASSERT_TRUE(holds("research", "r1"));
  clock_.advance(Duration::hours(3));

  ASSERT_TRUE(apply_as_admin(priced).ok());
  ASSERT_TRUE(apply_as("ana", contract_yaml("research-local", "research")).ok());
  ASSERT_EQ(*act("bob", "research-local", ContractAction::kApprove, "data reviewed"), "Approved");
  ASSERT_EQ(*act("ana", "research-local", ContractAction::kActivate), "Active");
  const Status budget = apply_as_admin(
      "apiVersion: allot/v1\nkind: Budget\nmetadata: {name: research-project}\n"
      "spec: {project: research-local, period: monthly, amount: 20, currency: EUR, "
      "action: stopAdmission}\n");
  ASSERT_TRUE(budget.ok()) << budget.to_string();
  submit(workload_yaml("r2", "research", 1), "research");
  clock_.advance(Duration::seconds(1));
  plane_->loop().run_once();

  const Result<nlohmann::json> standing = calls_->get_object("Budget", "research-project");
  ASSERT_TRUE(standing.ok()) << standing.status().to_string();
  EXPECT_DOUBLE_EQ((*standing)["status"]["spent"].get<double>(), 24.0 + 4 * 2.0 / 3600);
  EXPECT_TRUE((*standing)["status"]["stopsAdmission"].get<bool>()) << standing->dump();
  EXPECT_EQ(phase("research", "r2"), "Pending");
  EXPECT_EQ(explanation("research", "r2")["reason"], "BudgetExhausted");
  EXPECT_NE(explanation("research", "r2")["message"].get<std::string>().find(
                "the budget research-project of project research-local is exhausted"),
            std::string::npos)
      << explanation("research", "r2").dump();
  EXPECT_TRUE(holds("research", "r1")) << "running work runs on";

  const Status unknown = apply_as_admin(
      "apiVersion: allot/v1\nkind: Budget\nmetadata: {name: b}\n"
      "spec: {project: nowhere, amount: 1, currency: EUR}\n");
  EXPECT_EQ(unknown.code(), ErrorCode::kInvalidArgument) << unknown.to_string();
  EXPECT_NE(unknown.to_string().find("Budget/b.spec.project"), std::string::npos)
      << unknown.to_string();
}

}  // namespace
}  // namespace allot::testing
