// Issue 11, service accounts: per team namespace, with API tokens shown once,
// stored only as hashes (ApiToken records of AccessControl), expiring on the
// injected clock, revocable one by one or all at once with the account, and
// taken back at a restart. RBAC decides who manages them and what they may do.
#include "service/control/service_accounts.h"

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "authz/builtin_roles.h"
#include "control_plane_fixture.h"
#include "identity/credentials/api_token.h"

namespace allot::testing {
namespace {

const std::string kCiSubject = "system:serviceaccount:research:ci";

class ServiceAccountsTest : public ControlPlaneTest {
 protected:
  ServiceAccountsTest() {
    apply_policy();
    const Result<std::optional<std::string>> token = plane_->access().bootstrap_admin();
    EXPECT_TRUE(token.ok() && token->has_value());
    admin_token_ = token.ok() && *token ? **token : std::string();
    admin_ = login(admin_token_);
  }

  ServiceAccounts& accounts() { return plane_->service_accounts(); }

  Principal login(const std::string& token) {
    const Result<Principal> caller = plane_->access().authenticate("Bearer " + token);
    EXPECT_TRUE(caller.ok()) << caller.status().to_string();
    return caller.ok() ? *caller : Principal::user("nobody");
  }

  ErrorCode authenticate(const std::string& token) {
    return plane_->access().authenticate("Bearer " + token).status().code();
  }

  Principal session(const std::string& team, const std::string& role) {
    const Result<OpenedSession> opened =
        plane_->access().open_session({admin_token_, team, role, {}});
    EXPECT_TRUE(opened.ok()) << opened.status().to_string();
    return opened.ok() ? login(opened->token) : Principal::user("nobody");
  }

  void create(const std::string& ns, const std::string& name) {
    const Result<ServiceAccountView> created = accounts().create(admin_, ns, name);
    ASSERT_TRUE(created.ok()) << created.status().to_string();
  }

  IssuedToken issue(const std::string& ns, const std::string& name,
                    std::optional<Duration> lifetime = std::nullopt) {
    Result<IssuedToken> issued = accounts().issue_token(admin_, ns, name, lifetime);
    EXPECT_TRUE(issued.ok()) << issued.status().to_string();
    return issued.ok() ? std::move(issued).value() : IssuedToken{};
  }

  std::vector<std::string> token_ids(const std::string& ns, const std::string& name) {
    const Result<std::vector<ServiceAccountTokenView>> tokens = accounts().tokens(admin_, ns, name);
    if (!tokens.ok()) return {tokens.status().to_string()};
    std::vector<std::string> ids;
    for (const ServiceAccountTokenView& token : *tokens) ids.push_back(token.id);
    return ids;
  }

  std::string admin_token_;
  Principal admin_;
};

TEST_F(ServiceAccountsTest, ATokenIsShownOnceStoredAsAHashAndAuthenticatesAsTheAccount) {
  create("research", "ci");

  const IssuedToken issued = issue("research", "ci");

  EXPECT_TRUE(identity::is_api_token(issued.token));
  EXPECT_EQ(issued.view.id, "research.ci.1");
  EXPECT_FALSE(issued.view.expires_at.has_value()) << "without a lifetime: until revoked";
  const Principal account = login(issued.token);
  EXPECT_EQ(account.subject, kCiSubject);
  EXPECT_EQ(account.groups, (std::vector<std::string>{"system:serviceaccounts",
                                                      "system:serviceaccounts:research"}));
  EXPECT_FALSE(account.admin);
  const Result<StoredState> stored = store_.load();
  ASSERT_TRUE(stored.ok());
  bool hash_stored = false;
  for (const ObjectRecord& object : stored->objects) {
    EXPECT_EQ(object.document.find(issued.token), std::string::npos) << object.kind;
    hash_stored |=
        object.document.find(identity::api_token_hash(issued.token)) != std::string::npos;
  }
  EXPECT_TRUE(hash_stored);
  EXPECT_EQ(token_ids("research", "ci"), std::vector<std::string>{"research.ci.1"});
}

TEST_F(ServiceAccountsTest, AnAccountMayDoNothingUntilABindingGrantsIt) {
  submit(workload_yaml("r1", "research", 1), "research");
  create("research", "ci");
  const Principal account = login(issue("research", "ci").token);

  EXPECT_EQ(plane_->workloads().get(account, "research", "r1").status().code(),
            ErrorCode::kPermissionDenied);
  const Status denied = plane_->access().authorize(account, "list", "workloads", "research");
  EXPECT_EQ(denied.code(), ErrorCode::kPermissionDenied);
  EXPECT_NE(denied.message().find("ServiceAccount \"research/ci\" cannot list workloads"),
            std::string::npos)
      << denied.message();
  EXPECT_EQ(accounts().create(account, "research", "other").status().code(),
            ErrorCode::kPermissionDenied);

  // What a RoleBinding to the account grants, it may do (and only there).
  RbacPolicy policy;
  RoleBinding binding;
  binding.meta.name = "ci-submits";
  binding.meta.namespace_name = "research";
  binding.role_ref = {RoleRefKind::kClusterRole, std::string(kTeamMember)};
  binding.subjects = {{SubjectKind::kServiceAccount, "ci", ""}};
  policy.role_bindings.push_back(binding);
  const Authorizer bound(with_builtin_roles(policy));
  EXPECT_TRUE(bound.authorize(account, "create", "workloads", "research", "w").allowed);
  EXPECT_FALSE(bound.authorize(account, "create", "workloads", "prod", "w").allowed);
  EXPECT_FALSE(
      bound.authorize(account, "create", "serviceaccounts/token", "research", "ci").allowed)
      << "a team-member issues no tokens";
}

TEST_F(ServiceAccountsTest, RevokingATokenOrDeletingTheAccountEndsItsAccessAtOnce) {
  create("research", "ci");
  const IssuedToken first = issue("research", "ci");
  const IssuedToken second = issue("research", "ci");

  ASSERT_TRUE(accounts().revoke_token(admin_, "research", "ci", first.view.id).ok());

  EXPECT_EQ(authenticate(first.token), ErrorCode::kUnauthenticated);
  EXPECT_EQ(login(second.token).subject, kCiSubject);
  EXPECT_EQ(token_ids("research", "ci"), std::vector<std::string>{"research.ci.2"});

  ASSERT_TRUE(accounts().delete_account(admin_, "research", "ci").ok());

  EXPECT_EQ(authenticate(second.token), ErrorCode::kUnauthenticated);
  EXPECT_EQ(accounts().get(admin_, "research", "ci").status().code(), ErrorCode::kNotFound);
  restart();
  EXPECT_EQ(authenticate(first.token), ErrorCode::kUnauthenticated);
  EXPECT_EQ(authenticate(second.token), ErrorCode::kUnauthenticated);
  EXPECT_EQ(accounts().get(admin_, "research", "ci").status().code(), ErrorCode::kNotFound);
  const Result<StoredState> stored = store_.load();
  ASSERT_TRUE(stored.ok());
  for (const ObjectRecord& object : stored->objects) {
    EXPECT_NE(object.kind, kServiceAccountKind);
    EXPECT_EQ(object.document.find(kCiSubject), std::string::npos) << object.name;
  }
}

// A team made again with the namespace would find the accounts and their
// tokens would act in it: the team cannot go, nor move, while it has any.
TEST_F(ServiceAccountsTest, ATeamWithAccountsCanNeitherBeDeletedNorMoveItsNamespace) {
  create("research", "ci");
  const IssuedToken token = issue("research", "ci");

  const Status deleted = plane_->policies().delete_object(admin_, "Team", "research");
  const Result<ApplyResult> moved = calls_->apply(
      "apiVersion: allot/v1\nkind: Team\nmetadata: {name: research}\n"
      "spec: {namespace: lab, cohort: org, quota: [{flavor: gpu, resources: {gpu: {nominal: "
      "8}}}]}\n",
      false);

  EXPECT_EQ(deleted.code(), ErrorCode::kFailedPrecondition);
  EXPECT_NE(deleted.message().find("service account 'research/ci'"), std::string::npos)
      << deleted.to_string();
  EXPECT_EQ(moved.status().code(), ErrorCode::kFailedPrecondition) << moved.status().to_string();
  EXPECT_NE(moved.status().message().find("cannot move from namespace 'research' to 'lab'"),
            std::string::npos)
      << moved.status().to_string();
  EXPECT_EQ(login(token.token).subject, kCiSubject) << "nothing was applied";

  ASSERT_TRUE(accounts().delete_account(admin_, "research", "ci").ok());
  const Status now_deleted = plane_->policies().delete_object(admin_, "Team", "research");
  EXPECT_TRUE(now_deleted.ok()) << now_deleted.to_string();
  EXPECT_EQ(accounts().create(admin_, "research", "ci").status().code(), ErrorCode::kNotFound)
      << "no team, no account";
}

// A rotation looks the token up, stores the new hash, then installs it: a
// revoke in between would be undone. Token changes are serialised, so the
// revoke waits for the rotation's commit and then removes the new token.
TEST_F(ServiceAccountsTest, ARevokeDuringARotationWaitsAndIsNeverUndone) {
  create("research", "ci");
  const IssuedToken token = issue("research", "ci");
  const size_t entered = store_.entered();
  store_.close();

  Result<std::string> rotated = Status(ErrorCode::kInternal, "not run");
  Status revoked(ErrorCode::kInternal, "not run");
  std::thread rotation([&] { rotated = plane_->access().rotate_api_token(admin_, token.view.id); });
  store_.wait_until_entered(entered + 1);
  std::thread revoke(
      [&] { revoked = accounts().revoke_token(admin_, "research", "ci", token.view.id); });
  EXPECT_FALSE(store_.wait_until_entered_for(entered + 2, std::chrono::milliseconds(200)))
      << "the revoke reached the store while the rotation was storing";
  store_.open();
  rotation.join();
  revoke.join();

  ASSERT_TRUE(rotated.ok()) << rotated.status().to_string();
  EXPECT_TRUE(revoked.ok()) << revoked.to_string();
  EXPECT_EQ(authenticate(*rotated), ErrorCode::kUnauthenticated);
  EXPECT_EQ(token_ids("research", "ci"), std::vector<std::string>{});
  restart();
  EXPECT_EQ(authenticate(*rotated), ErrorCode::kUnauthenticated) << "nor after a restart";
}

TEST_F(ServiceAccountsTest, ATokenExpiresOnTheClock) {
  create("research", "ci");
  const IssuedToken issued = issue("research", "ci", Duration::hours(1));
  ASSERT_TRUE(issued.view.expires_at.has_value());
  EXPECT_EQ(*issued.view.expires_at, clock_.now() + Duration::hours(1));

  clock_.advance(Duration::minutes(59));
  EXPECT_EQ(login(issued.token).subject, kCiSubject);
  clock_.advance(Duration::minutes(1));

  EXPECT_EQ(authenticate(issued.token), ErrorCode::kUnauthenticated);
  const Result<std::vector<ServiceAccountTokenView>> tokens =
      accounts().tokens(admin_, "research", "ci");
  ASSERT_TRUE(tokens.ok());
  ASSERT_EQ(tokens->size(), 1u);
  EXPECT_TRUE(tokens->front().expired) << "listed, marked expired, until revoked";
  for (const Duration wrong : {Duration::minutes(9), Duration::hours(24 * 3651)}) {
    EXPECT_EQ(accounts().issue_token(admin_, "research", "ci", wrong).status().code(),
              ErrorCode::kInvalidArgument)
        << wrong.to_string();
  }
}

TEST_F(ServiceAccountsTest, AccountsAndTokensSurviveARestartAndIdsAreNotReused) {
  create("research", "ci");
  create("prod", "deploy");
  const IssuedToken first = issue("research", "ci");
  const IssuedToken second = issue("research", "ci", Duration::hours(2));
  ASSERT_TRUE(accounts().revoke_token(admin_, "research", "ci", second.view.id).ok());

  restart();

  EXPECT_EQ(login(first.token).subject, kCiSubject);
  EXPECT_EQ(authenticate(second.token), ErrorCode::kUnauthenticated);
  EXPECT_EQ(issue("research", "ci").view.id, "research.ci.3") << "the count is stored";
  const Result<std::vector<ServiceAccountView>> all = accounts().list(admin_, "");
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ(all->at(0).namespace_name, "prod");
  EXPECT_EQ(all->at(1).name, "ci");
  EXPECT_EQ(all->at(1).tokens.size(), 2u);
  EXPECT_EQ(all->at(1).created_at, clock_.now());
}

TEST_F(ServiceAccountsTest, BadNamesMissingTeamsAndDuplicatesAreClearErrors) {
  create("research", "ci");

  EXPECT_EQ(accounts().create(admin_, "research", "CI").status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(accounts().create(admin_, "research", "a.b").status().code(),
            ErrorCode::kInvalidArgument);
  EXPECT_EQ(accounts().create(admin_, "research", std::string(64, 'a')).status().code(),
            ErrorCode::kInvalidArgument);
  const Status no_team = accounts().create(admin_, "nowhere", "ci").status();
  EXPECT_EQ(no_team.code(), ErrorCode::kNotFound);
  EXPECT_NE(no_team.message().find("no team has the namespace 'nowhere'"), std::string::npos);
  EXPECT_EQ(accounts().create(admin_, "research", "ci").status().code(), ErrorCode::kAlreadyExists);
  EXPECT_EQ(accounts().issue_token(admin_, "research", "cd", {}).status().code(),
            ErrorCode::kNotFound);
  EXPECT_EQ(accounts().revoke_token(admin_, "research", "ci", "research.ci.9").code(),
            ErrorCode::kNotFound);
  const IssuedToken issued = issue("research", "ci");
  const Status pasted = accounts().revoke_token(admin_, "research", "ci", issued.token);
  EXPECT_EQ(pasted.code(), ErrorCode::kNotFound);
  EXPECT_EQ(pasted.to_string().find(issued.token), std::string::npos) << "never echoed";
  const Status other_account = accounts().revoke_token(admin_, "prod", "ci", issued.view.id);
  EXPECT_EQ(other_account.code(), ErrorCode::kNotFound);
  EXPECT_EQ(login(issued.token).subject, kCiSubject);
}

TEST_F(ServiceAccountsTest, ATeamAdminManagesItsTeamsAccountsAndMembersAndViewersDoNot) {
  const Principal research_admin = session("research", "team-admin");
  const Principal member = session("research", "team-member");
  const Principal viewer = session("research", "team-viewer");

  ASSERT_TRUE(accounts().create(research_admin, "research", "ci").ok());
  const Result<IssuedToken> issued = accounts().issue_token(research_admin, "research", "ci", {});
  ASSERT_TRUE(issued.ok()) << issued.status().to_string();
  EXPECT_TRUE(accounts().tokens(research_admin, "research", "ci").ok());
  EXPECT_EQ(accounts().create(research_admin, "prod", "ci").status().code(),
            ErrorCode::kPermissionDenied);
  for (const Principal& caller : {member, viewer}) {
    EXPECT_EQ(accounts().create(caller, "research", "x").status().code(),
              ErrorCode::kPermissionDenied);
    EXPECT_EQ(accounts().issue_token(caller, "research", "ci", {}).status().code(),
              ErrorCode::kPermissionDenied);
    EXPECT_EQ(accounts().list(caller, "research").status().code(), ErrorCode::kPermissionDenied);
    EXPECT_EQ(accounts().list(caller, "")->size(), 0u) << "sees no account";
    EXPECT_EQ(accounts().revoke_token(caller, "research", "ci", issued->view.id).code(),
              ErrorCode::kPermissionDenied);
    EXPECT_EQ(accounts().delete_account(caller, "research", "ci").code(),
              ErrorCode::kPermissionDenied);
  }
  create("prod", "deploy");
  const Result<std::vector<ServiceAccountView>> seen = accounts().list(research_admin, "");
  ASSERT_TRUE(seen.ok());
  ASSERT_EQ(seen->size(), 1u) << "only its team's";
  EXPECT_EQ(seen->front().namespace_name, "research");
  EXPECT_TRUE(accounts().revoke_token(research_admin, "research", "ci", issued->view.id).ok());
  EXPECT_TRUE(accounts().delete_account(research_admin, "research", "ci").ok());
}

TEST_F(ServiceAccountsTest, AnAccountUsesItsTokenAsItIsAndOpensNoSession) {
  create("research", "ci");
  const IssuedToken issued = issue("research", "ci");

  const Result<OpenedSession> opened =
      plane_->access().open_session({issued.token, "research", "team-viewer", {}});

  EXPECT_EQ(opened.status().code(), ErrorCode::kPermissionDenied);
  EXPECT_EQ(opened.status().to_string().find(issued.token), std::string::npos);
}

TEST_F(ServiceAccountsTest, AnAccountHoldsABoundedNumberOfTokens) {
  create("research", "ci");
  for (size_t i = 0; i < kMaxTokensPerAccount; ++i) issue("research", "ci");

  const Status full = accounts().issue_token(admin_, "research", "ci", {}).status();

  EXPECT_EQ(full.code(), ErrorCode::kFailedPrecondition);
  ASSERT_TRUE(accounts().revoke_token(admin_, "research", "ci", "research.ci.1").ok());
  EXPECT_EQ(issue("research", "ci").view.id, "research.ci.51");
}

}  // namespace
}  // namespace allot::testing
