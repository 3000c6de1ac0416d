// Issue 11: directory groups are RBAC subjects, counted on every request;
// a deactivated or deleted directory User is refused whatever it presents;
// the local provider opens sessions for directory Users with a password.
#include <string>

#include <gtest/gtest.h>

#include "control_plane_fixture.h"
#include "identity/credentials/api_token.h"
#include "service/control/access_control.h"

namespace allot::testing {
namespace {

using json = nlohmann::json;
using scim::ResourceKind;

json op(const std::string& name, const std::string& path, const json& value = nullptr) {
  json operation = {{"op", name}, {"path", path}};
  if (!value.is_null()) operation["value"] = value;
  return {{"schemas", {"urn:ietf:params:scim:api:messages:2.0:PatchOp"}},
          {"Operations", {operation}}};
}

class DirectoryAccessTest : public ControlPlaneTest {
 protected:
  void SetUp() override {
    apply_policy(
        "apiVersion: allot/v1\nkind: ClusterRoleBinding\nmetadata: {name: platform-admins}\n"
        "subjects: [{kind: Group, name: platform-admins}]\n"
        "roleRef: {kind: ClusterRole, name: cluster-admin}\n");
    const Result<json> ana = plane_->scim().create(
        ResourceKind::kUser, {{"userName", "ana@x.org"}, {"password", "c0rrect-h0rse"}});
    ASSERT_TRUE(ana.ok()) << ana.status().to_string();
    ana_ = ana->value("id", "");
    const Result<json> admins =
        plane_->scim().create(ResourceKind::kGroup, {{"displayName", "platform-admins"}});
    ASSERT_TRUE(admins.ok());
    admins_ = admins->value("id", "");
  }

  // An API token of `subject` with no groups of its own, stored as allotd stores them.
  std::string token_of(const std::string& subject) {
    identity::IssuedApiToken issued = identity::issue_api_token(subject, subject, {}, clock_.now());
    WriteBatch batch;
    batch.put_objects.push_back({std::string(kApiTokenKind), subject,
                                 identity::api_token_record_json(issued.record).dump()});
    EXPECT_TRUE(store_.commit(std::move(batch)).ok());
    restart();
    return issued.token;
  }

  void patch(ResourceKind kind, const std::string& id, const json& request) {
    const Result<json> patched = plane_->scim().patch(kind, id, request);
    ASSERT_TRUE(patched.ok()) << patched.status().to_string();
  }

  // Whether the bearer may delete teams (cluster-admin) on this request.
  Status may_administer(const std::string& bearer) {
    ALLOT_ASSIGN_OR_RETURN(const Principal caller,
                           plane_->access().authenticate("Bearer " + bearer));
    return plane_->access().authorize(caller, "delete", "teams", "", "prod");
  }

  std::string ana_;
  std::string admins_;
};

TEST_F(DirectoryAccessTest, GroupMembershipCountsFromTheNextRequest) {
  const std::string token = token_of("ANA@x.org");  // a subject matches ignoring case
  EXPECT_EQ(may_administer(token).code(), ErrorCode::kPermissionDenied);

  patch(ResourceKind::kGroup, admins_, op("Add", "members", {{{"value", ana_}}}));
  EXPECT_TRUE(may_administer(token).ok());
  const Principal caller = plane_->access().authenticate("Bearer " + token).value();
  EXPECT_EQ(caller.groups, std::vector<std::string>{"platform-admins"});

  patch(ResourceKind::kGroup, admins_, op("Remove", "members[value eq \"" + ana_ + "\"]"));
  EXPECT_EQ(may_administer(token).code(), ErrorCode::kPermissionDenied);
}

TEST_F(DirectoryAccessTest, ASessionKeepsOnlyItsCredentialsGroupsSoRemovalCountsAtOnce) {
  patch(ResourceKind::kGroup, admins_, op("Add", "members", {{{"value", ana_}}}));
  const Result<OpenedSession> opened =
      plane_->access().open_password_session({"ana@x.org", "c0rrect-h0rse", "", "", {}});
  ASSERT_TRUE(opened.ok()) << opened.status().to_string();
  EXPECT_TRUE(opened->claims.groups.empty()) << "directory groups are looked up per request";
  EXPECT_TRUE(may_administer(opened->token).ok());

  patch(ResourceKind::kGroup, admins_, op("Remove", "members", {{{"value", ana_}}}));
  EXPECT_EQ(may_administer(opened->token).code(), ErrorCode::kPermissionDenied);
  patch(ResourceKind::kGroup, admins_, op("Add", "members", {{{"value", ana_}}}));
  EXPECT_TRUE(may_administer(opened->token).ok());
}

TEST_F(DirectoryAccessTest, ADeactivatedOrDeletedUserIsRefusedWhateverItPresents) {
  patch(ResourceKind::kGroup, admins_, op("Add", "members", {{{"value", ana_}}}));
  const std::string token = token_of("ana@x.org");
  const std::string session =
      plane_->access().open_password_session({"ana@x.org", "c0rrect-h0rse", "", "", {}})->token;

  patch(ResourceKind::kUser, ana_, op("Replace", "active", "False"));
  for (const std::string& bearer : {token, session}) {
    const Status refused = may_administer(bearer);
    EXPECT_EQ(refused.code(), ErrorCode::kUnauthenticated);
    EXPECT_NE(refused.message().find("deactivated"), std::string::npos) << refused.message();
  }
  EXPECT_EQ(plane_->access()
                .open_password_session({"ana@x.org", "c0rrect-h0rse", "", "", {}})
                .status()
                .code(),
            ErrorCode::kUnauthenticated);
  patch(ResourceKind::kUser, ana_, op("Replace", "active", true));
  EXPECT_TRUE(may_administer(session).ok());

  ASSERT_TRUE(plane_->scim().remove(ResourceKind::kUser, ana_).ok());
  EXPECT_EQ(may_administer(session).code(), ErrorCode::kUnauthenticated);
  restart();
  EXPECT_EQ(may_administer(token).code(), ErrorCode::kUnauthenticated) << "after a restart too";
}

TEST_F(DirectoryAccessTest, SubjectsTheDirectoryNeverHadAndSystemSubjectsAreLeftAlone) {
  const std::string admin = plane_->access().bootstrap_admin().value().value();
  EXPECT_TRUE(may_administer(admin).ok());
  // A directory User cannot pose as one of allotd's own identities.
  const std::string robot = "system:serviceaccount:prod:ci";
  EXPECT_EQ(plane_->scim()
                .create(ResourceKind::kUser, {{"userName", robot}, {"active", false}})
                .status()
                .code(),
            ErrorCode::kInvalidArgument);
  const std::string token = token_of(robot);
  const Result<Principal> caller = plane_->access().authenticate("Bearer " + token);
  ASSERT_TRUE(caller.ok()) << caller.status().to_string();
  EXPECT_TRUE(caller->groups.empty());
}

// A directory stored before SCIM refused "system:" names keeps such a group
// in its records: it loads, and grants nothing.
TEST_F(DirectoryAccessTest, AStoredSystemGroupOfTheDirectoryGrantsNothing) {
  WriteBatch batch;
  const json group = {{"schemas", {"urn:ietf:params:scim:schemas:core:2.0:Group"}},
                      {"id", "legacy-admins"},
                      {"displayName", "system:admins"},
                      {"members", {{{"value", ana_}, {"type", "User"}}}},
                      {"meta", {{"resourceType", "Group"}}}};
  batch.put_objects.push_back(
      {"ScimGroup", "legacy-admins", json{{"sequence", 99}, {"resource", group}}.dump()});
  ASSERT_TRUE(store_.commit(std::move(batch)).ok());
  const std::string token = token_of("ana@x.org");  // restarts: the directory is loaded again

  ASSERT_TRUE(plane_->scim().get(ResourceKind::kGroup, "legacy-admins", {}).ok()) << "it loaded";
  const Result<Principal> caller = plane_->access().authenticate("Bearer " + token);
  ASSERT_TRUE(caller.ok()) << caller.status().to_string();
  EXPECT_TRUE(caller->groups.empty());
  EXPECT_EQ(may_administer(token).code(), ErrorCode::kPermissionDenied);
}

TEST_F(DirectoryAccessTest, APasswordSessionFollowsTheTeamAndRoleRules) {
  const Result<OpenedSession> wrong =
      plane_->access().open_password_session({"ana@x.org", "guess", "", "", {}});
  EXPECT_EQ(wrong.status().code(), ErrorCode::kUnauthenticated);
  EXPECT_EQ(wrong.status().to_string().find("guess"), std::string::npos);
  // No binding gives ana anything: neither a cluster-wide nor a team session.
  EXPECT_EQ(plane_->access()
                .open_password_session({"ana@x.org", "c0rrect-h0rse", "", "", {}})
                .status()
                .code(),
            ErrorCode::kPermissionDenied);
  apply_policy();
  EXPECT_EQ(plane_->access()
                .open_password_session({"ana@x.org", "c0rrect-h0rse", "prod", "team-viewer", {}})
                .status()
                .code(),
            ErrorCode::kPermissionDenied);
  EXPECT_EQ(plane_->access()
                .open_password_session({"ana@x.org", "c0rrect-h0rse", "prod", "", {}})
                .status()
                .code(),
            ErrorCode::kInvalidArgument);
  patch(ResourceKind::kGroup, admins_, op("Add", "members", {{{"value", ana_}}}));
  const Result<OpenedSession> viewer = plane_->access().open_password_session(
      {"ana@x.org", "c0rrect-h0rse", "prod", "team-viewer", Duration::hours(1)});
  ASSERT_TRUE(viewer.ok()) << viewer.status().to_string();
  EXPECT_EQ(viewer->claims.subject, "ana@x.org");
  EXPECT_EQ(viewer->claims.expires_at, clock_.now() + Duration::hours(1));
}

}  // namespace
}  // namespace allot::testing
