// Issue 11: deny by default with a first administrator; API tokens and
// sessions bound to a team and a role; authorisation and list visibility
// through RBAC (the built-in roles; custom RBAC objects come with apply).
#include "service/control/access_control.h"

#include <string>

#include <gtest/gtest.h>

#include "api/workload_submission.h"
#include "control_plane_fixture.h"
#include "identity/credentials/api_token.h"

namespace allot::testing {
namespace {

WorkloadQuery prod_only_query() {
  WorkloadQuery query;
  query.namespace_name = "prod";
  return query;
}

class AccessControlTest : public ControlPlaneTest {
 protected:
  std::string admin_token() {
    const Result<std::optional<std::string>> token = plane_->access().bootstrap_admin();
    EXPECT_TRUE(token.ok() && token->has_value()) << token.status().to_string();
    return token.ok() && *token ? **token : std::string();
  }

  Principal login(const std::string& token) {
    const Result<Principal> caller = plane_->access().authenticate("Bearer " + token);
    EXPECT_TRUE(caller.ok()) << caller.status().to_string();
    return caller.ok() ? *caller : Principal::user("nobody");
  }

  Principal session(const std::string& token, const std::string& team, const std::string& role) {
    const Result<OpenedSession> opened = plane_->access().open_session({token, team, role, {}});
    EXPECT_TRUE(opened.ok()) << opened.status().to_string();
    return opened.ok() ? login(opened->token) : Principal::user("nobody");
  }

  size_t visible(const Principal& caller) {
    const Result<WorkloadPage> page = plane_->workloads().list(caller, {});
    EXPECT_TRUE(page.ok()) << page.status().to_string();
    return page.ok() ? page->items.size() : 0;
  }
};

TEST_F(AccessControlTest, TheFirstStartMakesOneAdministratorWhoseTokenIsStoredOnlyAsAHash) {
  const std::string token = admin_token();

  EXPECT_TRUE(identity::is_api_token(token));
  const Result<std::optional<std::string>> again = plane_->access().bootstrap_admin();
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->has_value()) << "once, as kubeadm writes admin.conf";
  const Principal admin = login(token);
  EXPECT_EQ(admin.subject, "admin");
  EXPECT_TRUE(plane_->access().authorize(admin, "delete", "teams", "", "prod").ok());
  const Result<StoredState> stored = store_.load();
  ASSERT_TRUE(stored.ok());
  for (const ObjectRecord& object : stored->objects) {
    EXPECT_EQ(object.document.find(token), std::string::npos) << object.kind;
  }
  restart();
  EXPECT_EQ(login(token).subject, "admin") << "the token survives a restart";
}

TEST_F(AccessControlTest, NoCredentialOrABadOneIsUnauthenticatedAndSaysNothingSecret) {
  const std::string token = admin_token();
  std::string wrong = token;
  wrong.back() = wrong.back() == 'A' ? 'B' : 'A';

  for (const std::string& header : std::vector<std::string>{"", "Basic abc", "Bearer " + wrong,
                                                            "Bearer x", "Bearer allots_e30.AAAA"}) {
    const Result<Principal> caller = plane_->access().authenticate(header);
    EXPECT_EQ(caller.status().code(), ErrorCode::kUnauthenticated) << header;
    EXPECT_EQ(caller.status().to_string().find(wrong), std::string::npos);
  }
}

TEST_F(AccessControlTest, ASessionActsOnlyWithItsRoleInItsTeam) {
  apply_policy();
  submit(workload_yaml("p1", "prod", 1), "prod");
  submit(workload_yaml("r1", "research", 1), "research");
  const std::string token = admin_token();
  const Principal viewer = session(token, "research", "team-viewer");
  const Principal member = session(token, "research", "team-member");

  EXPECT_EQ(visible(login(token)), 2u) << "the administrator sees every team";
  EXPECT_EQ(visible(viewer), 1u) << "a session sees its team only";
  EXPECT_TRUE(plane_->workloads().get(viewer, "research", "r1").ok());
  EXPECT_EQ(plane_->workloads().get(viewer, "prod", "p1").status().code(),
            ErrorCode::kPermissionDenied);
  EXPECT_EQ(plane_->workloads().cancel(viewer, "research", "r1").status().code(),
            ErrorCode::kPermissionDenied)
      << "a viewer sees but does not act";
  EXPECT_TRUE(plane_->workloads().cancel(member, "research", "r1").ok());
  const Status denied = plane_->workloads().cancel(member, "prod", "p1").status();
  EXPECT_EQ(denied.code(), ErrorCode::kPermissionDenied);
  EXPECT_NE(denied.message().find("cannot cancel workloads \"p1\" in namespace \"prod\""),
            std::string::npos)
      << denied.message();
  EXPECT_EQ(plane_->workloads().list(viewer, prod_only_query()).status().code(),
            ErrorCode::kPermissionDenied);
  EXPECT_EQ(phase("prod", "p1"), "Pending");
}

// A ClusterRole alone (no team): a session at cluster scope with that role's
// rules only, as a contract approver logs in to approve contracts.
TEST_F(AccessControlTest, AClusterRoleSessionActsOnlyOnClusterScopedResourcesWithThatRole) {
  apply_policy();
  const std::string token = admin_token();
  const Principal approver = session(token, "", "contract-approver");

  EXPECT_TRUE(plane_->access().authorize(approver, "approve", "contracts", "", "c").ok());
  EXPECT_TRUE(plane_->access().authorize(approver, "list", "contracts", "", "").ok());
  EXPECT_TRUE(plane_->access().authorize(approver, "get", "contracts/evidence", "", "c").ok())
      << "the evidence of a contract (issue 15, item 7)";
  EXPECT_EQ(plane_->access().authorize(approver, "delete", "teams", "", "prod").code(),
            ErrorCode::kPermissionDenied)
      << "what contract-approver does not grant, though the admin holds it";
  EXPECT_EQ(plane_->access().authorize(approver, "list", "workloads", "prod", "").code(),
            ErrorCode::kPermissionDenied)
      << "no namespace";
  const Result<OpenedSession> no_role = plane_->access().open_session({token, "prod", "", {}});
  EXPECT_EQ(no_role.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(no_role.status().message().find("names the role"), std::string::npos)
      << no_role.status().to_string();
}

TEST_F(AccessControlTest, ARoleTheCallerDoesNotHoldIsRefusedAndABindinglessUserSeesNothing) {
  apply_policy();
  submit(workload_yaml("r1", "research", 1), "research");
  identity::IssuedApiToken ana = identity::issue_api_token("ana", "ana", {}, clock_.now());
  WriteBatch batch;
  batch.put_objects.push_back(
      {std::string(kApiTokenKind), "ana", identity::api_token_record_json(ana.record).dump()});
  ASSERT_TRUE(store_.commit(std::move(batch)).ok());
  restart();

  const Result<OpenedSession> opened =
      plane_->access().open_session({ana.token, "research", "team-viewer", {}});

  EXPECT_EQ(opened.status().code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(plane_->access().open_session({ana.token, "", "contract-approver", {}}).status().code(),
            ErrorCode::kPermissionDenied)
      << "a ClusterRole the caller holds at cluster scope only";
  EXPECT_EQ(visible(login(ana.token)), 0u);
  EXPECT_EQ(plane_->workloads().get(login(ana.token), "research", "r1").status().code(),
            ErrorCode::kPermissionDenied);
}

TEST_F(AccessControlTest, SessionsExpireAndSurviveARestart) {
  const std::string token = admin_token();
  const Result<OpenedSession> opened =
      plane_->access().open_session({token, "", "", Duration::hours(1)});
  ASSERT_TRUE(opened.ok()) << opened.status().to_string();

  restart();
  EXPECT_TRUE(plane_->access().authenticate("Bearer " + opened->token).ok());
  clock_.advance(Duration::hours(1));

  EXPECT_EQ(plane_->access().authenticate("Bearer " + opened->token).status().code(),
            ErrorCode::kUnauthenticated);
  const Result<OpenedSession> long_one =
      plane_->access().open_session({token, "", "", Duration::hours(100)});
  ASSERT_TRUE(long_one.ok());
  EXPECT_EQ(long_one->claims.expires_at, clock_.now() + Duration::hours(12)) << "12 hours at most";
}

TEST_F(AccessControlTest, ARotatedTokenStopsWorkingAndTheNewOneWorks) {
  const std::string token = admin_token();

  const Result<std::string> fresh = plane_->access().rotate_api_token(login(token), "admin");

  ASSERT_TRUE(fresh.ok()) << fresh.status().to_string();
  EXPECT_FALSE(plane_->access().authenticate("Bearer " + token).ok());
  EXPECT_EQ(login(*fresh).subject, "admin");
  const Principal viewer = session(*fresh, "prod", "team-viewer");
  EXPECT_EQ(plane_->access().rotate_api_token(viewer, "admin").status().code(),
            ErrorCode::kPermissionDenied);
}

}  // namespace
}  // namespace allot::testing
