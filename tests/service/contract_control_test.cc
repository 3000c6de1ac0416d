// Connection contracts through the control plane on a manual clock (issue 15,
// items 2 to 4): an Organization with data classifications, a Contract drafted
// by one person and approved by another (self-approval refused), activated,
// admitting its namespace's work; revoked, so its work is drained and new
// work waits with ContractMissing; a revocation that drains only its
// project's namespaces and removes their RoleBindings; a kind the contract does not approve and a
// classification above the cluster's refused at submit; an overdue review; owners that are not in
// the directory; status kept across a restart; installs without an Organization unchanged.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "api/rfc3339.h"
#include "control_plane_fixture.h"
#include "governance/audit_event.h"
#include "hook_server.h"
#include "service/control/http_webhook_sender.h"
#include "service/control/review_notices.h"

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

// Reviews (issue 15, item 5) with the owners' notices POSTed to a real
// loopback server through the signals' webhook worker.
class ContractReviewControl : public ContractControl {
 protected:
  ContractReviewControl() {
    webhook_sender_ = &sender_;
    audit_sink_ = [this](governance::AuditEvent event) { audited_.push_back(std::move(event)); };
    restart();
  }

  // Applies contract `name` of `ns` with a reviewWebhook, approved and active.
  void activate(const std::string& name, const std::string& ns, const std::string& url,
                const std::string& owner = "ana") {
    ASSERT_TRUE(apply_as("ana", contract_yaml(name, ns, "internal", "[Job, TrainingJob]", owner) +
                                    "  reviewWebhook: " + url + "\n")
                    .ok());
    ASSERT_TRUE(act("bob", name, ContractAction::kApprove).ok());
    ASSERT_TRUE(act("bob", name, ContractAction::kActivate).ok());
  }

  nlohmann::json status_of(const std::string& name) {
    const Result<nlohmann::json> contract = calls_->get_object("Contract", name);
    return contract.ok() ? (*contract)["status"] : nlohmann::json();
  }

  // The review records of system:allotd on `contract`.
  std::vector<std::string> review_records(const std::string& contract) {
    std::vector<std::string> out;
    for (const governance::AuditEvent& event : audited_) {
      if (event.verb == "review" && event.username == "system:allotd" && event.object_ref &&
          event.object_ref->name == contract) {
        out.push_back(event.response_message);
      }
    }
    return out;
  }

  std::vector<nlohmann::json> stored_notices() {
    std::vector<nlohmann::json> out;
    const Result<StoredState> stored = store_.load();
    if (!stored.ok()) return out;
    for (const ObjectRecord& object : stored->objects) {
      if (object.kind == kContractReviewEventKind) {
        out.push_back(nlohmann::json::parse(object.document));
      }
    }
    return out;
  }

  HttpWebhookSender sender_{Duration::seconds(2)};
  std::vector<governance::AuditEvent> audited_;
};

TEST_F(ContractReviewControl, TheIntervalOpensTheReviewNotifiesTheOwnersAndOverdueStopsAdmission) {
  HookServer hook(1);
  apply_policy(governed_policy());
  activate("r", "research", hook.url());
  // Due after 30 days, grace 7 more. On day 29 nothing happens.
  clock_.advance(Duration::hours(24 * 29));
  plane_->loop().run_once();
  EXPECT_EQ(status_of("r")["phase"], "Active");
  EXPECT_TRUE(review_records("r").empty());

  // Day 30, on the loop's (manual) clock: UnderReview by system:allotd.
  clock_.advance(Duration::hours(24));
  plane_->loop().run_once();
  const nlohmann::json status = status_of("r");
  EXPECT_EQ(status["phase"], "UnderReview");
  const nlohmann::json& step = status["history"].back();
  EXPECT_EQ(step["action"], "review");
  EXPECT_EQ(step["by"], "system:allotd");
  EXPECT_NE(step["reason"].get<std::string>().find("review interval"), std::string::npos)
      << step.dump();
  ASSERT_EQ(review_records("r").size(), 1u) << "audited once";
  EXPECT_NE(review_records("r")[0].find("owners notified"), std::string::npos);

  // The owners' webhook: the first POST fails, the retry after the backoff
  // takes it; the stored notice is then marked delivered.
  plane_->webhooks().deliver_due();
  ASSERT_EQ(hook.bodies().size(), 1u);
  clock_.advance(Duration::seconds(1));
  plane_->webhooks().deliver_due();
  ASSERT_EQ(hook.bodies().size(), 2u);
  const nlohmann::json body = nlohmann::json::parse(hook.bodies()[1]);
  EXPECT_EQ(body["kind"], "ContractReviewDue");
  EXPECT_EQ(body["contract"], "r");
  EXPECT_EQ(body["project"], "research-project");
  EXPECT_EQ(body["owners"]["business"], "ana");
  EXPECT_EQ(body["owners"]["exceptionOwner"], "ml-ops");
  EXPECT_EQ(body["reviewGraceEnds"], status["reviewGraceEnds"]);
  plane_->loop().run_once();
  ASSERT_EQ(stored_notices().size(), 1u);
  EXPECT_TRUE(stored_notices()[0]["delivered"].get<bool>());
  EXPECT_EQ(hook.bodies().size(), 2u) << "delivered once it was taken";

  // Within the grace work is admitted; past it, new work waits.
  clock_.advance(Duration::hours(24 * 6));
  submit(workload_yaml("a", "research", 1), "research");
  plane_->loop().run_once();
  EXPECT_TRUE(holds("research", "a"));
  clock_.advance(Duration::hours(24));
  submit(workload_yaml("b", "research", 1), "research");
  plane_->loop().run_once();
  EXPECT_EQ(phase("research", "b"), "Pending");
  EXPECT_EQ(explanation("research", "b")["reason"], "ReviewOverdue");
  EXPECT_TRUE(holds("research", "a")) << "running work runs on";
  EXPECT_EQ(*act("ana", "r", ContractAction::kRenew, "still needed"), "Active");
  clock_.advance(Duration::seconds(1));
  plane_->loop().run_once();
  EXPECT_TRUE(holds("research", "b"));
}

TEST_F(ContractReviewControl, OwnerCapacityAndClassificationChangesOpenReviewsWhileOthersStay) {
  HookServer hook(0);
  apply_policy(governed_policy());
  activate("r", "research", hook.url());
  activate("p", "prod", hook.url());

  // An owner of r changes: r's review opens with the change; p stays Active.
  ASSERT_TRUE(
      apply_as("ana", contract_yaml("r", "research", "internal", "[Job, TrainingJob]", "bob") +
                          "  reviewWebhook: " + hook.url() + "\n")
          .ok());
  EXPECT_EQ(status_of("r")["phase"], "UnderReview");
  EXPECT_NE(status_of("r")["history"].back()["reason"].get<std::string>().find(
                "its spec changed (owners)"),
            std::string::npos)
      << status_of("r");
  EXPECT_EQ(status_of("p")["phase"], "Active");
  // The review opened by the event is due now: its grace runs from it.
  EXPECT_EQ(status_of("r")["reviewGraceEnds"],
            format_rfc3339(clock_.now() + Duration::hours(24 * 7)));

  // The cluster's capacity changes (a third node): p's review opens too.
  std::string bigger = governed_policy();
  bigger.replace(bigger.find("count: 2"), 8, "count: 3");
  apply_policy(bigger);
  EXPECT_EQ(status_of("p")["phase"], "UnderReview");
  EXPECT_NE(status_of("p")["history"].back()["reason"].get<std::string>().find(
                "cluster local's capacity changed"),
            std::string::npos)
      << status_of("p");
  EXPECT_EQ(review_records("p").size(), 1u);
  EXPECT_EQ(review_records("r").size(), 1u) << "r was under review already";

  // Renewed, then the cluster's classification changes: reviewed again.
  EXPECT_EQ(*act("bob", "p", ContractAction::kRenew, "capacity checked"), "Active");
  std::string raised = bigger;
  raised.replace(raised.find("maxDataClassification: internal"), 31,
                 "maxDataClassification: confidential");
  apply_policy(raised);
  EXPECT_EQ(status_of("p")["phase"], "UnderReview");
  EXPECT_NE(status_of("p")["history"].back()["reason"].get<std::string>().find(
                "maxDataClassification changed"),
            std::string::npos);
  EXPECT_EQ(review_records("p").size(), 2u);

  // What may not change in force is still refused.
  EXPECT_EQ(apply_as("ana", contract_yaml("p", "prod", "internal", "[Job]")).code(),
            ErrorCode::kFailedPrecondition);

  // Three notices, stored and POSTed.
  EXPECT_EQ(stored_notices().size(), 3u);
  plane_->loop().run_once();
  plane_->webhooks().deliver_due();
  EXPECT_EQ(hook.bodies().size(), 3u);
}

TEST_F(ContractReviewControl, AnUndeliveredNoticeIsSentAgainAfterARestart) {
  HookServer hook(1);
  apply_policy(governed_policy());
  activate("r", "research", hook.url());
  clock_.advance(Duration::hours(24 * 30));
  plane_->loop().run_once();
  plane_->webhooks().deliver_due();
  ASSERT_EQ(hook.bodies().size(), 1u) << "refused by the receiver";
  restart();
  plane_->webhooks().deliver_due();
  ASSERT_EQ(hook.bodies().size(), 2u);
  EXPECT_EQ(nlohmann::json::parse(hook.bodies()[1])["contract"], "r");
  plane_->loop().run_once();
  ASSERT_EQ(stored_notices().size(), 1u);
  EXPECT_TRUE(stored_notices()[0]["delivered"].get<bool>());
  EXPECT_EQ(status_of("r")["phase"], "UnderReview");
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
