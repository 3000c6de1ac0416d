// OIDC logins in the control plane (issue 11): OidcAuthenticator maps a
// verified token to an identity (the username and groups claims, Entra's
// group overage, reserved names), and AccessControl takes ID tokens as
// bearer tokens and as the credential of a session that never outlives the
// token; the web dashboard's login: its authorization URL, the code's
// redemption, the nonce. Keys and tokens are made in the test (tests/identity/oidc).
#include <optional>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "base/clock.h"
#include "fake_jwks_source.h"
#include "identity/oidc/authorization_code.h"
#include "identity/oidc/token_verifier.h"
#include "model/rbac/rbac_policy.h"
#include "service/control/access_control.h"
#include "service/control/oidc_authenticator.h"
#include "store/memory_store.h"
#include "test_signer.h"

namespace allot {
namespace {

using nlohmann::json;
using oidc::testing::FakeJwksSource;
using oidc::testing::TestSigner;

// The token endpoint's side of the browser login: one canned answer; says
// what it was sent.
class FakeHttpPort final : public oidc::HttpPort {
 public:
  Result<oidc::HttpReply> get(const std::string& /*url*/) override {
    return Status(ErrorCode::kUnavailable, "not used");
  }
  Result<oidc::HttpReply> post_form(const std::string& to,
                                    const oidc::FormFields& fields) override {
    url = to;
    form = fields;
    return reply;
  }
  oidc::HttpReply reply;
  std::string url;
  oidc::FormFields form;
};

constexpr char kIssuer[] = "https://login.example.com/tenant/v2.0";
constexpr char kClient[] = "allot-client";
constexpr int64_t kNow = 1'800'000'000;  // seconds

Timestamp at(int64_t seconds) { return Timestamp::from_millis(seconds * 1000); }

const TestSigner& issuer_key() {
  static const TestSigner* signer = new TestSigner(TestSigner::rsa("key-1"));
  return *signer;
}

json claims_of(const std::string& user, json groups = {"research"}) {
  json claims = {{"iss", kIssuer},         {"aud", kClient},  {"sub", "00u-" + user},
                 {"exp", kNow + 3600},     {"iat", kNow - 5}, {"preferred_username", user},
                 {"email", user + "@x.io"}};
  if (!groups.is_null()) claims["groups"] = std::move(groups);
  return claims;
}

oidc::VerifierConfig verifier_config() {
  oidc::VerifierConfig config;
  config.issuer = kIssuer;
  config.client_id = kClient;
  return config;
}

class OidcLoginTest : public ::testing::Test {
 protected:
  OidcLoginTest()
      : keys_(oidc::testing::jwks_of({issuer_key().jwk()})),
        verifier_(verifier_config(), keys_),
        authenticator_(verifier_, [this] { return discover(); }, {}),
        clock_(at(kNow)),
        access_(store_, clock_, &authenticator_) {
    // The organisation's administrators' group, bound as it would apply it.
    RbacPolicy rbac;
    ClusterRoleBinding admins;
    admins.meta.name = "platform-admins";
    admins.subjects.push_back({SubjectKind::kGroup, "platform-admins", ""});
    admins.role_ref = {RoleRefKind::kClusterRole, "cluster-admin"};
    rbac.cluster_role_bindings.push_back(std::move(admins));
    access_.install_rbac(std::move(rbac));
  }

  Result<oidc::ProviderMetadata> discover() {
    ++discoveries_;
    if (issuer_down_) return Status(ErrorCode::kUnavailable, "connection refused");
    return oidc::ProviderMetadata{
        kIssuer, std::string(kIssuer) + "/keys", std::string(kIssuer) + "/token",
        std::string(kIssuer) + "/devicecode", discovered_authorization_endpoint_};
  }

  static std::string token(const json& claims) { return issuer_key().sign(claims); }

  FakeJwksSource keys_;
  oidc::TokenVerifier verifier_;
  OidcAuthenticator authenticator_;
  int discoveries_ = 0;
  bool issuer_down_ = false;
  std::optional<std::string> discovered_authorization_endpoint_;
  ManualClock clock_;
  MemoryStore store_;
  AccessControl access_;
};

TEST_F(OidcLoginTest, TheUsernameClaimIsTheSubjectAndTheGroupsClaimTheGroups) {
  const auto identity =
      authenticator_.authenticate(token(claims_of("ana", {"research", "ml"})), at(kNow));

  ASSERT_TRUE(identity.ok()) << identity.status().to_string();
  EXPECT_EQ(identity->subject, "ana") << "preferred_username, not sub";
  EXPECT_EQ(identity->groups, (std::vector<std::string>{"research", "ml"}));
  EXPECT_EQ(identity->expires_at, at(kNow + 3600));
}

TEST_F(OidcLoginTest, AnotherUsernameClaimCanBeChosen) {
  OidcAuthenticator by_email(verifier_, [this] { return discover(); }, {.username_claim = "email"});

  const auto identity = by_email.authenticate(token(claims_of("ana")), at(kNow));

  ASSERT_TRUE(identity.ok()) << identity.status().to_string();
  EXPECT_EQ(identity->subject, "ana@x.io");
}

TEST_F(OidcLoginTest, ATokenWithoutTheUsernameClaimIsRefusedNamingTheClaim) {
  json claims = claims_of("ana");
  claims.erase("preferred_username");

  const auto identity = authenticator_.authenticate(token(claims), at(kNow));

  EXPECT_EQ(identity.status().code(), ErrorCode::kUnauthenticated);
  EXPECT_NE(identity.status().message().find("claim preferred_username"), std::string::npos)
      << identity.status().message();
}

TEST_F(OidcLoginTest, NoIdentityProviderMayNameASystemUser) {
  const auto identity = authenticator_.authenticate(
      token(claims_of("system:serviceaccount:prod:deployer")), at(kNow));

  EXPECT_EQ(identity.status().code(), ErrorCode::kUnauthenticated);
  EXPECT_NE(identity.status().message().find("reserved"), std::string::npos);
}

TEST_F(OidcLoginTest, EntraGroupOverageGivesNoGroupsFromTheToken) {
  // Over 200 groups, Entra ID sends a pointer to Graph instead of the list.
  json claims = claims_of("ana", nullptr);
  claims["_claim_names"] = {{"groups", "src1"}};
  claims["_claim_sources"] = {
      {"src1", {{"endpoint", "https://graph.microsoft.com/v1.0/users/x/getMemberObjects"}}}};

  const auto identity = authenticator_.authenticate(token(claims), at(kNow));

  ASSERT_TRUE(identity.ok()) << identity.status().to_string();
  EXPECT_TRUE(identity->groups.empty()) << "the SCIM directory's groups are the fallback";
}

TEST_F(OidcLoginTest, RefusalsSayWhichCheckFailedAndNeverTheToken) {
  json wrong_audience = claims_of("ana");
  wrong_audience["aud"] = "another-app";
  const std::string forged = token(wrong_audience);

  const auto identity = authenticator_.authenticate(forged, at(kNow));

  EXPECT_EQ(identity.status().code(), ErrorCode::kUnauthenticated);
  EXPECT_EQ(identity.status().message(),
            "OIDC token refused: claim aud does not contain the client id");
  EXPECT_EQ(identity.status().to_string().find(forged), std::string::npos);
}

TEST_F(OidcLoginTest, KeysThatCannotBeHadAreUnavailableNotARefusal) {
  keys_.set_down(true);

  const auto identity = authenticator_.authenticate(token(claims_of("ana")), at(kNow));

  EXPECT_EQ(identity.status().code(), ErrorCode::kUnavailable);
  EXPECT_NE(identity.status().message().find("issuer down"), std::string::npos)
      << identity.status().message();
}

TEST_F(OidcLoginTest, TheLoginConfigNamesTheDeviceFlowEndpointsFromDiscovery) {
  const OidcLoginConfig config = authenticator_.login_config(at(kNow));

  EXPECT_EQ(config.issuer, kIssuer);
  EXPECT_EQ(config.client_id, kClient);
  EXPECT_EQ(config.scopes, "openid profile email");
  EXPECT_EQ(config.device_authorization_endpoint, std::string(kIssuer) + "/devicecode");
  EXPECT_EQ(config.token_endpoint, std::string(kIssuer) + "/token");
  EXPECT_EQ(config.discovery_error, "");
}

TEST_F(OidcLoginTest, AnIssuerThatIsDownIsAskedAgainOnlyAfterTheRetryInterval) {
  issuer_down_ = true;

  const OidcLoginConfig first = authenticator_.login_config(at(kNow));
  const OidcLoginConfig soon = authenticator_.login_config(at(kNow + 5));

  EXPECT_EQ(first.device_authorization_endpoint, "");
  EXPECT_NE(first.discovery_error.find("connection refused"), std::string::npos);
  EXPECT_EQ(soon.discovery_error, first.discovery_error);
  EXPECT_EQ(discoveries_, 1);
  issuer_down_ = false;
  EXPECT_EQ(authenticator_.login_config(at(kNow + 11)).discovery_error, "");
  EXPECT_EQ(discoveries_, 2);
}

TEST_F(OidcLoginTest, AnIdTokenIsABearerTokenOfItsUser) {
  const Result<Principal> caller = access_.authenticate("Bearer " + token(claims_of("ana")));

  ASSERT_TRUE(caller.ok()) << caller.status().to_string();
  EXPECT_EQ(caller->subject, "ana");
  EXPECT_EQ(caller->groups, std::vector<std::string>{"research"});
  EXPECT_FALSE(caller->scope.has_value());
}

// "system:" names are allot's own (principal.h): an issuer cannot grant them.
TEST_F(OidcLoginTest, AnIssuersSystemGroupsAreDroppedAndItsSystemUsersRefused) {
  const Result<Principal> caller =
      access_.authenticate("Bearer " + token(claims_of("mallory", {"system:admins", "research"})));
  const Result<Principal> posing =
      access_.authenticate("Bearer " + token(claims_of("system:allotd", {})));

  ASSERT_TRUE(caller.ok()) << caller.status().to_string();
  EXPECT_EQ(caller->groups, std::vector<std::string>{"research"});
  EXPECT_EQ(access_.authorize(*caller, "delete", "teams", "", "prod").code(),
            ErrorCode::kPermissionDenied);
  EXPECT_EQ(posing.status().code(), ErrorCode::kUnauthenticated);
}

TEST_F(OidcLoginTest, ASessionOpenedWithAnIdTokenEndsNoLaterThanTheToken) {
  SessionRequest request;
  request.id_token = token(claims_of("root", {"platform-admins"}));

  const Result<OpenedSession> session = access_.open_session(request);

  ASSERT_TRUE(session.ok()) << session.status().to_string();
  EXPECT_EQ(session->claims.subject, "root");
  EXPECT_EQ(session->claims.groups, std::vector<std::string>{"platform-admins"});
  EXPECT_EQ(session->claims.expires_at, at(kNow + 3600)) << "the token's exp, not 8 hours";
  const Result<Principal> caller = access_.authenticate("Bearer " + session->token);
  ASSERT_TRUE(caller.ok()) << caller.status().to_string();
  EXPECT_EQ(caller->subject, "root");
}

TEST_F(OidcLoginTest, ASessionIsBoundToATeamAndARoleTheUserHolds) {
  SessionRequest request;
  request.team = "research";
  request.role = "team-viewer";
  request.id_token = token(claims_of("root", {"platform-admins"}));
  SessionRequest stranger = request;
  stranger.id_token = token(claims_of("ana", {"research"}));

  const Result<OpenedSession> session = access_.open_session(request);
  const Result<OpenedSession> refused = access_.open_session(stranger);

  ASSERT_TRUE(session.ok()) << session.status().to_string();
  EXPECT_EQ(session->claims.team, "research");
  EXPECT_EQ(session->claims.role, "team-viewer");
  EXPECT_EQ(refused.status().code(), ErrorCode::kPermissionDenied)
      << "ana has no binding: " << refused.status().to_string();
}

TEST_F(OidcLoginTest, ATokenInItsExpiryLeewayOpensNoSession) {
  SessionRequest request;
  json claims = claims_of("root", {"platform-admins"});
  claims["exp"] = kNow - 30;  // within the 60 s leeway: still a valid token
  request.id_token = token(claims);

  const Result<OpenedSession> session = access_.open_session(request);

  EXPECT_EQ(session.status().code(), ErrorCode::kUnauthenticated);
}

// The web dashboard's login (ui_oidc_routes.cc) asks for its nonce: an ID
// token issued for another login (another nonce, or none) opens no session.
TEST_F(OidcLoginTest, ASessionOfTheBrowserLoginNeedsTheTokensNonceToBeTheLogins) {
  json claims = claims_of("root", {"platform-admins"});
  claims["nonce"] = "nonce-of-this-login";
  SessionRequest request;
  request.id_token = token(claims);
  request.nonce = "nonce-of-this-login";
  SessionRequest other = request;
  other.nonce = "nonce-of-another-login";
  SessionRequest without = request;
  without.id_token = token(claims_of("root", {"platform-admins"}));

  const Result<OpenedSession> session = access_.open_session(request);
  const Result<OpenedSession> refused = access_.open_session(other);
  const Result<OpenedSession> no_nonce = access_.open_session(without);

  ASSERT_TRUE(session.ok()) << session.status().to_string();
  EXPECT_EQ(session->claims.subject, "root");
  EXPECT_EQ(refused.status().code(), ErrorCode::kUnauthenticated);
  EXPECT_NE(refused.status().message().find("nonce is not this login's"), std::string::npos)
      << refused.status().to_string();
  EXPECT_EQ(no_nonce.status().code(), ErrorCode::kUnauthenticated);
}

TEST_F(OidcLoginTest, TheBrowserLoginStartsAtTheAuthorizationEndpointWithFreshSecrets) {
  discovered_authorization_endpoint_ = std::string(kIssuer) + "/authorize";
  FakeHttpPort http;
  OidcAuthenticator with_http(
      verifier_, [this] { return discover(); }, {}, &http);

  const Result<BrowserLoginStart> first =
      with_http.start_browser_login("http://127.0.0.1:8080/ui/oidc/callback", at(kNow));
  const Result<BrowserLoginStart> second =
      with_http.start_browser_login("http://127.0.0.1:8080/ui/oidc/callback", at(kNow));
  const Result<BrowserLoginStart> no_client =
      authenticator_.start_browser_login("http://127.0.0.1:8080/ui/oidc/callback", at(kNow));

  ASSERT_TRUE(first.ok()) << first.status().to_string();
  ASSERT_TRUE(second.ok());
  EXPECT_TRUE(first->url.starts_with(std::string(kIssuer) + "/authorize?response_type=code&"))
      << first->url;
  EXPECT_NE(first->url.find("&state=" + first->state + "&"), std::string::npos) << first->url;
  EXPECT_NE(first->url.find("&nonce=" + first->nonce + "&"), std::string::npos) << first->url;
  EXPECT_NE(first->url.find("&code_challenge=" + oidc::pkce_s256_challenge(first->code_verifier) +
                            "&code_challenge_method=S256"),
            std::string::npos)
      << first->url;
  EXPECT_EQ(first->url.find(first->code_verifier), std::string::npos) << "the verifier stays here";
  EXPECT_EQ(first->state.size(), 43U) << "32 random bytes, base64url";
  EXPECT_NE(first->state, second->state);
  EXPECT_NE(first->nonce, second->nonce);
  EXPECT_NE(first->code_verifier, second->code_verifier);
  EXPECT_EQ(no_client.status().code(), ErrorCode::kFailedPrecondition);
}

TEST_F(OidcLoginTest, TheBrowserLoginsCodeIsRedeemedWithItsVerifierAtTheTokenEndpoint) {
  FakeHttpPort http;
  http.reply = {200, R"({"access_token":"a","token_type":"Bearer","id_token":"the.id.token"})"};
  OidcAuthenticator with_http(
      verifier_, [this] { return discover(); }, {}, &http);

  const Result<std::string> id_token =
      with_http.redeem_browser_code("the-code", "the-verifier", "http://h/cb", at(kNow));
  http.reply = {400, R"({"error":"invalid_grant"})"};
  const Result<std::string> refused =
      with_http.redeem_browser_code("the-code", "the-verifier", "http://h/cb", at(kNow));

  ASSERT_TRUE(id_token.ok()) << id_token.status().to_string();
  EXPECT_EQ(*id_token, "the.id.token");
  EXPECT_EQ(http.url, std::string(kIssuer) + "/token");
  EXPECT_EQ(http.form, (oidc::FormFields{{"grant_type", "authorization_code"},
                                         {"code", "the-code"},
                                         {"redirect_uri", "http://h/cb"},
                                         {"client_id", kClient},
                                         {"code_verifier", "the-verifier"}}));
  EXPECT_EQ(refused.status().code(), ErrorCode::kUnauthenticated);
  EXPECT_NE(refused.status().message().find("invalid_grant"), std::string::npos);
  EXPECT_EQ(refused.status().message().find("the-code"), std::string::npos);
}

TEST(OidcLoginOff, WithoutAnIssuerAJwtIsRefusedWithTheReason) {
  MemoryStore store;
  ManualClock clock(at(kNow));
  AccessControl access(store, clock);
  SessionRequest request;
  request.id_token = issuer_key().sign(claims_of("ana"));

  const Result<Principal> caller = access.authenticate("Bearer " + request.id_token);
  const Result<OpenedSession> session = access.open_session(request);

  EXPECT_EQ(caller.status().code(), ErrorCode::kUnauthenticated);
  EXPECT_NE(caller.status().message().find("--oidc-issuer"), std::string::npos);
  EXPECT_EQ(session.status().code(), ErrorCode::kUnauthenticated);
  EXPECT_FALSE(access.login_methods().oidc.has_value());
}

}  // namespace
}  // namespace allot
