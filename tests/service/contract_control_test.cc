// Connection contracts through the control plane on a manual clock (issue 15,
// items 2 to 4): an Organization with data classifications, a Contract drafted
// by one person and approved by another (self-approval refused), activated,
// admitting its namespace's work; revoked, so its work is drained and new
// work waits with ContractMissing; a revocation that drains only its
// project's namespaces and removes their RoleBindings; a kind the contract
// does not approve and a classification above the cluster's refused at
// submit; owners that are not in the directory; a project's usage and
// budget; status kept across a restart; installs without an Organization
// unchanged. Reviews: contract_review_control_test.cc.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "api/rfc3339.h"
#include "contract_control_fixture.h"
#include "governance/audit_event.h"

namespace allot::testing {
namespace {

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

  // A spec changes only while Draft (in force: only its owners, roles and
  // classification, which open a review); a live contract cannot be deleted.
  EXPECT_EQ(
      apply_as("ana", contract_yaml("research-local", "research", "internal", "[Job]")).code(),
      ErrorCode::kFailedPrecondition);
  EXPECT_EQ(plane_->policies()
                .delete_object(Principal::anonymous_admin(), "Contract", "research-local")
                .code(),
            ErrorCode::kFailedPrecondition);

  // Revoked: running work is stopped with its grace period (drained), new work waits.
  EXPECT_EQ(*act("bob", "research-local", ContractAction::kRevoke, "project ended"), "Revoked");
  ASSERT_EQ(executor_.stops.size(), 1u);
  EXPECT_EQ(executor_.stops[0].second, Duration::seconds(30));
  submit(workload_yaml("r2", "research", 1), "research");
  clock_.advance(Duration::seconds(1));
  plane_->loop().run_once();
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

constexpr const char* kTeamBindings = R"(
---
apiVersion: allot/v1
kind: RoleBinding
metadata: {name: members, namespace: research}
subjects: [{kind: User, name: rita}]
roleRef: {kind: ClusterRole, name: team-member}
---
apiVersion: allot/v1
kind: RoleBinding
metadata: {name: members, namespace: prod}
subjects: [{kind: User, name: paul}]
roleRef: {kind: ClusterRole, name: team-member}
)";

TEST_F(ContractControl, RevocationDrainsOnlyTheProjectsWorkWithGraceAndRemovesItsBindings) {
  std::vector<governance::AuditEvent> audited;
  audit_sink_ = [&audited](governance::AuditEvent event) { audited.push_back(std::move(event)); };
  restart();  // the directory of SetUp() is stored
  apply_policy(governed_policy() + kTeamBindings);
  ASSERT_TRUE(apply_as("ana", contract_yaml("r", "research")).ok());
  ASSERT_TRUE(apply_as("ana", contract_yaml("p", "prod")).ok());
  for (const char* name : {"r", "p"}) {
    ASSERT_TRUE(act("bob", name, ContractAction::kApprove).ok());
    ASSERT_TRUE(act("bob", name, ContractAction::kActivate).ok());
  }
  const uint64_t running = submit(workload_yaml("running", "research", 8, 1, "high"), "research");
  const uint64_t prod = submit(workload_yaml("p1", "prod", 4), "prod");
  submit(workload_yaml("waiting", "research", 8, 2), "research");  // 16 GPUs: 12 are free
  plane_->loop().run_once();
  ASSERT_TRUE(holds("research", "running"));
  ASSERT_TRUE(holds("prod", "p1"));
  ASSERT_EQ(phase("research", "waiting"), "Pending");

  const Result<std::string> revoked = act("bob", "r", ContractAction::kRevoke, "project ended");
  ASSERT_TRUE(revoked.ok()) << revoked.status().to_string();

  // Pending work cancelled at once; running work told to stop with its
  // class's grace (high: 30s); prod's work untouched.
  EXPECT_EQ(phase("research", "waiting"), "Cancelled");
  ASSERT_EQ(executor_.stops.size(), 1u);
  EXPECT_EQ(executor_.stops[0], std::make_pair(running, Duration::seconds(30)));
  EXPECT_TRUE(holds("research", "running")) << "it stops within its grace";
  const std::vector<std::string> types = event_types("research", "running");
  EXPECT_NE(std::find(types.begin(), types.end(), "Warning"), types.end());
  exit_pods(running, 143, true);
  EXPECT_EQ(phase("research", "running"), "Cancelled");
  EXPECT_TRUE(holds("prod", "p1"));
  for (const auto& [uid, grace] : executor_.stops) EXPECT_NE(uid, prod);

  // The project's bindings are gone, prod's stay.
  const Result<nlohmann::json> bindings = calls_->list_objects("RoleBinding");
  ASSERT_TRUE(bindings.ok()) << bindings.status().to_string();
  ASSERT_EQ((*bindings)["items"].size(), 1u) << bindings->dump();
  EXPECT_EQ((*bindings)["items"][0]["metadata"]["namespace"], "prod");

  // Audited: each drained workload and each removed binding, by system:allotd.
  std::vector<std::string> acts;
  for (const governance::AuditEvent& event : audited) {
    if (event.username != "system:allotd" || !event.object_ref) continue;
    if (event.verb != "cancel" && event.verb != "delete") continue;
    acts.push_back(event.verb + " " + event.object_ref->resource + " " +
                   event.object_ref->namespace_name + "/" + event.object_ref->name);
    EXPECT_NE(event.response_message.find("contract r revoked by bob: project ended"),
              std::string::npos)
        << event.response_message;
  }
  EXPECT_EQ(acts, (std::vector<std::string>{"delete rolebindings research/members",
                                            "cancel workloads research/running",
                                            "cancel workloads research/waiting"}));

  // A second revocation is refused and removes nothing more.
  EXPECT_EQ(act("bob", "r", ContractAction::kRevoke).status().code(),
            ErrorCode::kFailedPrecondition);
  EXPECT_EQ(calls_->list_objects("RoleBinding")->at("items").size(), 1u);
}

TEST_F(ContractControl, ANamespaceAnotherContractStillCoversIsNotDrained) {
  apply_policy(governed_policy() + kTeamBindings);
  ASSERT_TRUE(apply_as("ana", contract_yaml("r1", "research")).ok());
  ASSERT_TRUE(apply_as("ana", contract_yaml("r2", "research")).ok());
  for (const char* name : {"r1", "r2"}) {
    ASSERT_TRUE(act("bob", name, ContractAction::kApprove).ok());
    ASSERT_TRUE(act("bob", name, ContractAction::kActivate).ok());
  }
  submit(workload_yaml("a", "research", 1), "research");
  plane_->loop().run_once();
  ASSERT_TRUE(holds("research", "a"));
  ASSERT_TRUE(act("bob", "r1", ContractAction::kRevoke, "superseded").ok());
  EXPECT_TRUE(executor_.stops.empty());
  EXPECT_TRUE(holds("research", "a"));
  EXPECT_EQ(calls_->list_objects("RoleBinding")->at("items").size(), 2u);
}

TEST_F(ContractControl, AProjectsEvidenceIsForApproversAndTheContractsOwnersOnly) {
  apply_policy(governed_policy() + kTeamBindings);
  ASSERT_TRUE(apply_as("ana", contract_yaml("r", "research")).ok());
  clock_.advance(Duration::hours(1));
  EvidenceService& evidence = plane_->evidence();
  const Result<ProjectEvidence> by_group =
      evidence.collect(Principal::user("olga", {"ml-ops"}), "research-project", {}, {});
  ASSERT_TRUE(by_group.ok()) << "ml-ops owns operations: " << by_group.status().to_string();
  EXPECT_EQ(by_group->namespaces, std::vector<std::string>{"research"});
  EXPECT_EQ(by_group->from, clock_.now() - Duration::hours(1)) << "from the contract's creation";
  EXPECT_EQ(by_group->role_bindings.size(), 1u);
  EXPECT_TRUE(evidence.collect(Principal::user("bob"), "research-project", {}, {}).ok())
      << "an approver";
  EXPECT_EQ(evidence.collect(Principal::user("zed"), "research-project", {}, {}).status().code(),
            ErrorCode::kPermissionDenied);
  EXPECT_EQ(evidence.collect(Principal::user("bob"), "nosuch", {}, {}).status().code(),
            ErrorCode::kNotFound);
  EXPECT_EQ(evidence.collect(Principal::user("bob"), "research-project", clock_.now(), {})
                .status()
                .code(),
            ErrorCode::kInvalidArgument)
      << "an empty period";
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

// Issue 14: a project budget is read by the contract's owners (by name or
// group) and by the roles that read budgets in the contract's namespaces,
// as team budgets are; another team's roles see nothing of it.
TEST_F(ContractControl, AProjectBudgetIsVisibleToTheContractsOwnersAndNamespacesOnly) {
  const auto viewer = [](const std::string& user, const std::string& ns) {
    return "---\napiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: " +
           user + ", namespace: " + ns + "}\nsubjects: [{kind: User, name: " + user +
           "}]\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: "
           "team-viewer}\n";
  };
  std::string priced = governed_policy();
  const std::string flavor = "metadata: {name: gpu}\n";
  priced.replace(priced.find(flavor), flavor.size(),
                 flavor + "spec: {price: {currency: EUR, gpuHour: 2}}\n");
  ASSERT_TRUE(apply_as_admin(priced + viewer("rv", "research") + viewer("pv", "prod")).ok());
  ASSERT_TRUE(apply_as("ana", contract_yaml("research-local", "research")).ok());
  const Status budgets = apply_as_admin(
      "apiVersion: allot/v1\nkind: Budget\nmetadata: {name: research-project}\n"
      "spec: {project: research-local, period: monthly, amount: 20, currency: EUR}\n---\n"
      "apiVersion: allot/v1\nkind: Budget\nmetadata: {name: prod-weekly}\n"
      "spec: {team: prod, period: weekly, amount: 10, currency: EUR}\n");
  ASSERT_TRUE(budgets.ok()) << budgets.to_string();
  plane_->loop().run_once();
  const auto listed = [&](const Principal& who) {
    std::vector<std::string> names;
    const Result<std::vector<PolicyObjectView>> found =
        plane_->policies().list_objects(who, "Budget");
    if (!found.ok()) return std::vector<std::string>{found.status().to_string()};
    for (const PolicyObjectView& view : *found) names.push_back(view.name);
    return names;
  };
  const auto reads = [&](const Principal& who, const std::string& name) {
    return plane_->policies().get_object(who, "Budget", name).status().code();
  };
  // Owners: ana (business) by name, ml-ops (operations) by group.
  for (const Principal& owner : {Principal::user("ana"), Principal::user("olga", {"ml-ops"})}) {
    EXPECT_EQ(listed(owner), (std::vector<std::string>{"research-project"})) << owner.subject;
    EXPECT_EQ(reads(owner, "research-project"), ErrorCode::kOk) << owner.subject;
    EXPECT_EQ(reads(owner, "prod-weekly"), ErrorCode::kPermissionDenied) << owner.subject;
  }
  // The contract's namespace (research): its team's roles read it, with its standing.
  EXPECT_EQ(listed(Principal::user("rv")), (std::vector<std::string>{"research-project"}));
  const Result<PolicyObjectView> rv_view =
      plane_->policies().get_object(Principal::user("rv"), "Budget", "research-project");
  ASSERT_TRUE(rv_view.ok()) << rv_view.status().to_string();
  EXPECT_TRUE(rv_view->budget.has_value());
  // Another team sees nothing of it.
  EXPECT_EQ(listed(Principal::user("pv")), (std::vector<std::string>{"prod-weekly"}));
  EXPECT_EQ(reads(Principal::user("pv"), "research-project"), ErrorCode::kPermissionDenied);
  EXPECT_EQ(reads(Principal::user("mallory"), "research-project"), ErrorCode::kPermissionDenied);
  EXPECT_EQ(plane_->policies().list_objects(Principal::user("mallory"), "Budget").status().code(),
            ErrorCode::kPermissionDenied);
}

}  // namespace
}  // namespace allot::testing
