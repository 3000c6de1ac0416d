// Issue 11, item 4: Role, ClusterRole, RoleBinding and ClusterRoleBinding
// through apply, enforced by the control plane. They apply with the other
// kinds, all or nothing; their errors are located; dry runs and diffs show
// them; they are stored and survive a restart; AccessControl decides with
// them from the next call; and applying them is itself authorized, with
// Kubernetes' escalation prevention.
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "api/workload_submission.h"
#include "control_plane_fixture.h"
#include "identity/credentials/api_token.h"

namespace allot::testing {
namespace {

constexpr const char* kResearchMembers = R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: members, namespace: research}
subjects:
- {kind: Group, apiGroup: rbac.authorization.k8s.io, name: research-engineers}
- {kind: User, apiGroup: rbac.authorization.k8s.io, name: ana}
- {kind: ServiceAccount, name: ci}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: team-member}
)";

// `name` in `ns` binds `subject` (a User) to the ClusterRole `role`.
std::string binding(const std::string& ns, const std::string& name, const std::string& user,
                    const std::string& role, const std::string& role_kind = "ClusterRole") {
  return "apiVersion: allot/v1\nkind: RoleBinding\nmetadata: {name: " + name +
         ", namespace: " + ns + "}\nsubjects: [{kind: User, name: " + user +
         "}]\nroleRef: {kind: " + role_kind + ", name: " + role + "}\n";
}

class RbacApplyTest : public ControlPlaneTest {
 protected:
  RbacApplyTest() { apply_policy(); }

  Result<ApplyResult> apply_as(const Principal& caller, const std::string& yaml,
                               bool dry_run = false) {
    ALLOT_ASSIGN_OR_RETURN(ParsedManifests parsed, parse_manifests_with_documents(yaml));
    return plane_->policies().apply(caller, parsed, dry_run);
  }
  void admin_applies(const std::string& yaml) {
    const Result<ApplyResult> applied = apply_as(Principal::anonymous_admin(), yaml);
    ASSERT_TRUE(applied.ok()) << applied.status().to_string();
  }
  Status submit_as(const Principal& caller, const std::string& yaml, const std::string& ns) {
    const WorkloadId id = plane_->workloads().allocate_id();
    ALLOT_ASSIGN_OR_RETURN(Workload workload, decode_workload_submission(yaml, ns, id));
    return plane_->workloads().create(caller, workload, id).status();
  }
  bool may(const Principal& caller, const std::string& verb, const std::string& resource,
           const std::string& ns) {
    return plane_->access().authorize(caller, verb, resource, ns).ok();
  }

  const Principal ana_ = Principal::user("ana");
  const Principal bob_ = Principal::user("bob", {"research-engineers"});
  const Principal ci_ = Principal::user("system:serviceaccount:research:ci");
  const Principal lead_ = Principal::user("lead");
};

TEST_F(RbacApplyTest, ABindingGrantsItsSubjectsTheRoleInItsNamespaceFromTheNextCall) {
  EXPECT_FALSE(may(ana_, "create", "workloads", "research"));

  admin_applies(kResearchMembers);

  for (const Principal& caller : {ana_, bob_, ci_}) {
    EXPECT_TRUE(may(caller, "create", "workloads", "research")) << caller.subject;
    EXPECT_TRUE(may(caller, "cancel", "workloads", "research")) << caller.subject;
    EXPECT_FALSE(may(caller, "delete", "workloads", "research")) << caller.subject;
    EXPECT_FALSE(may(caller, "create", "workloads", "prod")) << "only in its namespace";
  }
  EXPECT_FALSE(
      may(Principal::user("system:serviceaccount:prod:ci"), "list", "workloads", "research"))
      << "a service account of another namespace";
  EXPECT_TRUE(submit_as(ana_, workload_yaml("by-ana", "research", 1), "research").ok());
  EXPECT_EQ(submit_as(ana_, workload_yaml("by-ana", "prod", 1), "prod").code(),
            ErrorCode::kPermissionDenied);
}

TEST_F(RbacApplyTest, DeletingABindingTakesItsRightsAwayAtOnce) {
  admin_applies(kResearchMembers);
  ASSERT_TRUE(may(ana_, "list", "workloads", "research"));

  const Status deleted = plane_->policies().delete_object(Principal::anonymous_admin(),
                                                          "RoleBinding", "members", "research");

  ASSERT_TRUE(deleted.ok()) << deleted.to_string();
  EXPECT_FALSE(may(ana_, "list", "workloads", "research"));
  EXPECT_FALSE(may(bob_, "list", "workloads", "research"));
}

TEST_F(RbacApplyTest, BindingsAndRolesSurviveARestart) {
  admin_applies(std::string(kResearchMembers) + R"(---
apiVersion: allot/v1
kind: Role
metadata: {name: log-reader, namespace: prod}
rules: [{verbs: [get], apiGroups: [allot], resources: [workloads/logs]}]
---
)" + binding("prod", "readers", "ana", "log-reader", "Role"));

  restart();

  EXPECT_TRUE(may(ana_, "create", "workloads", "research"));
  EXPECT_TRUE(may(bob_, "list", "events", "research"));
  EXPECT_TRUE(may(ana_, "get", "workloads/logs", "prod")) << "a Role of the namespace";
  EXPECT_FALSE(may(ana_, "get", "workloads", "prod"));
  const Result<PolicyObjectView> role =
      plane_->policies().get_object(Principal::anonymous_admin(), "Role", "log-reader", "prod");
  ASSERT_TRUE(role.ok()) << role.status().to_string();
  EXPECT_EQ(role->namespace_name, "prod");
}

TEST_F(RbacApplyTest, RbacObjectsApplyAllOrNothingWithTheOtherKinds) {
  const std::string batch = R"(apiVersion: allot/v1
kind: Cohort
metadata: {name: extra}
---
)" + binding("research", "good", "ana", "team-viewer") +
                            "---\n" + binding("nowhere", "bad", "ana", "team-viewer");

  const Result<ApplyResult> applied = apply_as(Principal::anonymous_admin(), batch);

  ASSERT_EQ(applied.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(applied.status().message().find("no team owns namespace 'nowhere'"), std::string::npos)
      << applied.status().to_string();
  EXPECT_EQ(applied.status().details(), "RoleBinding/nowhere/bad.metadata.namespace");
  EXPECT_FALSE(may(ana_, "list", "workloads", "research")) << "nothing applied";
  EXPECT_EQ(plane_->policies()
                .get_object(Principal::anonymous_admin(), "Cohort", "extra")
                .status()
                .code(),
            ErrorCode::kNotFound);
}

TEST_F(RbacApplyTest, AMalformedRbacDocumentIsALocatedErrorOfTheWholeFile) {
  const Result<ParsedManifests> parsed = parse_manifests_with_documents(
      "apiVersion: allot/v1\nkind: Cohort\nmetadata: {name: extra}\n---\n"
      "apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\n"
      "metadata: {name: b, namespace: research}\nsubjects: [{kind: Robot, name: r2}]\n"
      "roleRef: {kind: ClusterRole, name: team-viewer}\n",
      {}, "rbac.yaml");

  ASSERT_EQ(parsed.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(parsed.status().details(), "rbac.yaml: document 2 (RoleBinding/b): subjects[0].kind");
}

TEST_F(RbacApplyTest, ABuiltInRoleCannotBeRedefinedOrDeleted) {
  const Result<ApplyResult> applied = apply_as(Principal::anonymous_admin(), R"(
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: team-viewer}
rules: [{verbs: ["*"], apiGroups: ["*"], resources: ["*"]}]
)");

  ASSERT_EQ(applied.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(applied.status().message().find("built into allot"), std::string::npos);
  EXPECT_EQ(applied.status().details(), "ClusterRole/team-viewer.metadata.name");
  EXPECT_EQ(plane_->policies()
                .delete_object(Principal::anonymous_admin(), "ClusterRole", "cluster-admin")
                .code(),
            ErrorCode::kFailedPrecondition);
  EXPECT_EQ(plane_->policies()
                .delete_object(Principal::anonymous_admin(), "ClusterRoleBinding", "system:admins")
                .code(),
            ErrorCode::kFailedPrecondition);
}

TEST_F(RbacApplyTest, ADryRunShowsTheChangesAndGrantsNothing) {
  admin_applies(binding("research", "viewers", "ana", "team-viewer"));

  const Result<ApplyResult> dry =
      apply_as(Principal::anonymous_admin(),
               binding("research", "viewers", "ana", "team-member") + "---\n" +
                   binding("prod", "viewers", "ana", "team-viewer"),
               /*dry_run=*/true);

  ASSERT_TRUE(dry.ok()) << dry.status().to_string();
  ASSERT_EQ(dry->changes.size(), 2u);
  EXPECT_EQ(dry->changes[0].kind, "RoleBinding");
  EXPECT_EQ(dry->changes[0].name, "research/viewers");
  EXPECT_EQ(dry->changes[0].action, "configured");
  EXPECT_EQ(dry->changes[0].diff,
            std::vector<std::string>{R"(roleRef.name: "team-viewer" -> "team-member")"});
  EXPECT_EQ(dry->changes[1].name, "prod/viewers");
  EXPECT_EQ(dry->changes[1].action, "created");
  EXPECT_FALSE(may(ana_, "create", "workloads", "research")) << "a dry run changes nothing";
  EXPECT_FALSE(may(ana_, "list", "workloads", "prod"));
  const Result<ApplyResult> again =
      apply_as(Principal::anonymous_admin(), binding("research", "viewers", "ana", "team-viewer"));
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->changes.at(0).action, "unchanged");
}

TEST_F(RbacApplyTest, ATeamAdminBindsTheTeamRolesInItsNamespaceButNotClusterAdmin) {
  admin_applies(binding("research", "leads", "lead", "team-admin"));

  for (const std::string role : {"team-viewer", "team-member", "team-admin"}) {
    const Result<ApplyResult> granted =
        apply_as(lead_, binding("research", "as-" + role, "carl", role));
    EXPECT_TRUE(granted.ok()) << role << ": " << granted.status().to_string();
  }
  const Result<ApplyResult> escalation =
      apply_as(lead_, binding("research", "as-admin", "carl", "cluster-admin"));
  ASSERT_EQ(escalation.status().code(), ErrorCode::kPermissionDenied);
  EXPECT_NE(escalation.status().message().find("User \"lead\" cannot create RoleBinding "
                                               "\"research/as-admin\": ClusterRole "
                                               "\"cluster-admin\" grants"),
            std::string::npos)
      << escalation.status().to_string();
  EXPECT_EQ(escalation.status().details(), "RoleBinding/research/as-admin");
  const Result<ApplyResult> elsewhere =
      apply_as(lead_, binding("prod", "as-viewer", "carl", "team-viewer"));
  EXPECT_EQ(elsewhere.status().code(), ErrorCode::kPermissionDenied) << "not in another team";
  const Result<ApplyResult> cluster_wide = apply_as(lead_, R"(
apiVersion: allot/v1
kind: ClusterRoleBinding
metadata: {name: carl-views}
subjects: [{kind: User, name: carl}]
roleRef: {kind: ClusterRole, name: team-viewer}
)");
  EXPECT_EQ(cluster_wide.status().code(), ErrorCode::kPermissionDenied);
  EXPECT_TRUE(may(Principal::user("carl"), "create", "workloads", "research"));
  EXPECT_FALSE(may(Principal::user("carl"), "list", "workloads", "prod"));
}

TEST_F(RbacApplyTest, ARoleNeedsThePermissionsItGrantsAndABindingMayReferenceOneOfItsBatch) {
  admin_applies(binding("research", "leads", "lead", "team-admin"));
  const std::string own_role = R"(apiVersion: allot/v1
kind: Role
metadata: {name: canceller, namespace: research}
rules: [{verbs: [get, cancel], apiGroups: [allot], resources: [workloads]}]
---
)" + binding("research", "cancellers", "dora", "canceller", "Role");

  const Result<ApplyResult> applied = apply_as(lead_, own_role);

  ASSERT_TRUE(applied.ok()) << applied.status().to_string();
  EXPECT_TRUE(may(Principal::user("dora"), "cancel", "workloads", "research"));
  EXPECT_FALSE(may(Principal::user("dora"), "create", "workloads", "research"));
  const Result<ApplyResult> wider = apply_as(lead_, R"(apiVersion: allot/v1
kind: Role
metadata: {name: node-watcher, namespace: research}
rules: [{verbs: [get], apiGroups: [allot], resources: [workloads]},
        {verbs: [bind], apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles]}]
)");
  ASSERT_EQ(wider.status().code(), ErrorCode::kPermissionDenied);
  EXPECT_NE(wider.status().message().find("which User \"lead\" does not hold"), std::string::npos)
      << wider.status().to_string();
}

TEST_F(RbacApplyTest, BindOrEscalateLetsACallerGrantWhatItDoesNotHold) {
  admin_applies(R"(apiVersion: allot/v1
kind: ClusterRole
metadata: {name: binder}
rules:
- {verbs: [create, update], apiGroups: [rbac.authorization.k8s.io], resources: [rolebindings]}
- {verbs: [bind], apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles],
   resourceNames: [cluster-admin]}
---
apiVersion: allot/v1
kind: ClusterRoleBinding
metadata: {name: binders}
subjects: [{kind: User, name: eve}]
roleRef: {kind: ClusterRole, name: binder}
)");
  const Principal eve = Principal::user("eve");

  const Result<ApplyResult> bound =
      apply_as(eve, binding("prod", "break-glass", "frank", "cluster-admin"));

  ASSERT_TRUE(bound.ok()) << bound.status().to_string();
  EXPECT_TRUE(may(Principal::user("frank"), "delete", "workloads", "prod"));
  EXPECT_FALSE(may(eve, "delete", "workloads", "prod")) << "eve bound, she did not gain";
  EXPECT_EQ(apply_as(eve, binding("prod", "other", "frank", "team-admin")).status().code(),
            ErrorCode::kPermissionDenied)
      << "bind names cluster-admin only";
}

TEST_F(RbacApplyTest, ListsAndGetsShowTheCallerOnlyWhatItMayListWithTheBuiltIns) {
  admin_applies(std::string(kResearchMembers) + "---\n" +
                binding("prod", "viewers", "paul", "team-viewer") + "---\n" +
                binding("research", "leads", "lead", "team-admin"));
  const Principal admin = Principal::anonymous_admin();

  const Result<std::vector<PolicyObjectView>> all =
      plane_->policies().list_objects(admin, "RoleBinding");
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(all->size(), 3u);
  const Result<std::vector<PolicyObjectView>> leads =
      plane_->policies().list_objects(lead_, "RoleBinding");
  ASSERT_TRUE(leads.ok()) << leads.status().to_string();
  ASSERT_EQ(leads->size(), 2u) << "research's only";
  for (const PolicyObjectView& view : *leads) EXPECT_EQ(view.namespace_name, "research");
  EXPECT_EQ(plane_->policies().list_objects(lead_, "RoleBinding", "prod").status().code(),
            ErrorCode::kPermissionDenied);
  EXPECT_EQ(plane_->policies().get_object(lead_, "RoleBinding", "viewers", "prod").status().code(),
            ErrorCode::kPermissionDenied);
  const Result<std::vector<PolicyObjectView>> none =
      plane_->policies().list_objects(ana_, "RoleBinding");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty()) << "a member may not list bindings";
  const Result<std::vector<PolicyObjectView>> roles =
      plane_->policies().list_objects(admin, "ClusterRole");
  ASSERT_TRUE(roles.ok());
  ASSERT_EQ(roles->size(), 5u);
  EXPECT_EQ(roles->at(0).name, "cluster-admin");
  EXPECT_EQ(plane_->policies().list_objects(lead_, "ClusterRole").status().code(),
            ErrorCode::kPermissionDenied);
  EXPECT_EQ(plane_->policies().get_object(admin, "RoleBinding", "members").status().code(),
            ErrorCode::kInvalidArgument)
      << "a RoleBinding is named with its namespace";
}

TEST_F(RbacApplyTest, ATeamWithBindingsInItsNamespaceCannotBeDeleted) {
  admin_applies(binding("prod", "viewers", "paul", "team-viewer"));

  const Status deleted =
      plane_->policies().delete_object(Principal::anonymous_admin(), "Team", "prod");

  EXPECT_EQ(deleted.code(), ErrorCode::kFailedPrecondition);
  EXPECT_NE(deleted.message().find("no team owns namespace 'prod'"), std::string::npos)
      << deleted.to_string();
  EXPECT_TRUE(may(Principal::user("paul"), "list", "workloads", "prod"));
}

TEST_F(RbacApplyTest, ASessionMayTakeACustomRoleTheCallerHolds) {
  admin_applies(R"(apiVersion: allot/v1
kind: Role
metadata: {name: log-reader, namespace: research}
rules: [{verbs: [get], apiGroups: [allot], resources: [workloads/logs]}]
---
)" + binding("research", "leads", "lead", "team-admin"));
  identity::IssuedApiToken token = identity::issue_api_token("lead", "lead", {}, clock_.now());
  WriteBatch batch;
  batch.put_objects.push_back(
      {std::string(kApiTokenKind), "lead", identity::api_token_record_json(token.record).dump()});
  ASSERT_TRUE(store_.commit(std::move(batch)).ok());
  restart();

  const Result<OpenedSession> opened =
      plane_->access().open_session({token.token, "research", "log-reader", {}});

  ASSERT_TRUE(opened.ok()) << opened.status().to_string();
  const Result<Principal> session = plane_->access().authenticate("Bearer " + opened->token);
  ASSERT_TRUE(session.ok());
  EXPECT_TRUE(may(*session, "get", "workloads/logs", "research"));
  EXPECT_FALSE(may(*session, "cancel", "workloads", "research")) << "the session's role only";
  EXPECT_EQ(plane_->access().open_session({token.token, "prod", "team-viewer", {}}).status().code(),
            ErrorCode::kPermissionDenied);
}

TEST_F(RbacApplyTest, TheExampleOrganisationsGroupsGetTheirTeamsRoles) {
  const auto read = [](const std::string& name) {
    std::ifstream in(std::string(ALLOT_SOURCE_DIR) + "/examples/org/" + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  const Result<ApplyResult> applied =
      apply_as(Principal::anonymous_admin(), read("policy.yaml") + "\n---\n" + read("rbac.yaml"));
  ASSERT_TRUE(applied.ok()) << applied.status().to_string();

  const Principal engineer = Principal::user("ana", {"llm-training-engineers"});
  const Principal lead = Principal::user("rui", {"research-leads"});
  EXPECT_TRUE(may(engineer, "create", "workloads", "llm-training"));
  EXPECT_FALSE(may(engineer, "list", "workloads", "research"));
  EXPECT_TRUE(may(lead, "create", "rolebindings", "research"));
  EXPECT_FALSE(may(lead, "create", "rolebindings", "llm-training"));
  EXPECT_TRUE(may(Principal::user("vic", {"vision-inference-viewers"}), "get", "workloads/logs",
                  "vision-inference"));
  EXPECT_TRUE(may(Principal::user("fay", {"finance"}), "list", "workloads", "research"));
  EXPECT_FALSE(may(Principal::user("fay", {"finance"}), "cancel", "workloads", "research"));
  EXPECT_TRUE(may(Principal::user("pat", {"platform-admins"}), "delete", "teams", ""));
}

}  // namespace
}  // namespace allot::testing
