// Against a real OpenID provider (scripts/oidc-provider: node-oidc-provider,
// started by the ctest fixture `oidc_provider`): discovery and the JWKS over
// HTTP, the device authorization grant driven to the end (a TestBrowser
// enters the user code and signs in with a static account's password), and
// the ID token it issued verified by TokenVerifier, RS256 and ES256.
// The issuer's URL is in $ALLOT_TEST_OIDC_DIR/issuer; without it the tests skip.
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "base/clock.h"
#include "identity/oidc/device_flow.h"
#include "identity/oidc/http_jwks_source.h"
#include "identity/oidc/oidc_http_client.h"
#include "identity/oidc/token_verifier.h"
#include "test_browser.h"

namespace allot::oidc {
namespace {

std::string issuer_url() {
  const char* dir = std::getenv("ALLOT_TEST_OIDC_DIR");
  if (dir == nullptr) return "";
  std::ifstream in(std::string(dir) + "/issuer");
  std::string issuer;
  std::getline(in, issuer);
  return issuer;
}

class OidcRealProvider : public ::testing::Test {
 protected:
  void SetUp() override {
    issuer_ = issuer_url();
    if (issuer_.empty()) GTEST_SKIP() << "no provider: run through ctest (fixture oidc_provider)";
  }

  // Logs in through the device flow as `login`; returns the token set.
  Result<TokenSet> login(const std::string& client_id, const std::string& login,
                         const std::string& password, std::string* browser_error) {
    HttpJwksSource discovery(issuer_, http_);
    ALLOT_ASSIGN_OR_RETURN(ProviderMetadata metadata, discovery.metadata());
    if (!metadata.device_authorization_endpoint || !metadata.token_endpoint) {
      return not_found("the provider has no device flow endpoints");
    }
    DeviceFlowConfig config{
        .client_id = client_id,
        .device_authorization_endpoint = *metadata.device_authorization_endpoint,
        .token_endpoint = *metadata.token_endpoint,
        .scope = "openid profile email groups"};
    SystemClock clock;
    return run_device_flow(
        config, http_, clock,
        [](Duration d) { std::this_thread::sleep_for(std::chrono::milliseconds(d.ms())); },
        [&](const DeviceAuthorization& authorization) {
          testing::TestBrowser browser(issuer_);
          *browser_error = browser.approve(authorization.user_code, login, password);
        });
  }

  VerifierConfig config(const std::string& client_id) {
    VerifierConfig config;
    config.issuer = issuer_;
    config.client_id = client_id;
    return config;
  }

  std::string issuer_;
  OidcHttpClient http_;
};

TEST_F(OidcRealProvider, DiscoveryAndJwksOverHttp) {
  HttpJwksSource source(issuer_, http_);
  auto metadata = source.metadata();
  ASSERT_TRUE(metadata.ok()) << metadata.status().to_string();
  EXPECT_EQ(metadata->issuer, issuer_);
  EXPECT_EQ(metadata->device_authorization_endpoint, issuer_ + "/device/auth");
  auto document = source.fetch_jwks();
  ASSERT_TRUE(document.ok()) << document.status().to_string();
  auto jwks = parse_jwks(*document);
  ASSERT_TRUE(jwks.ok()) << jwks.status().to_string();
  EXPECT_NE(jwks->find(std::string("test-rsa"), JwsAlg::kRs256), nullptr);
  EXPECT_NE(jwks->find(std::string("test-ec"), JwsAlg::kEs256), nullptr);
}

TEST_F(OidcRealProvider, DeviceFlowIdTokenVerifiesRs256) {
  std::string browser_error;
  auto tokens = login("allot-cli", "ada", "ada-password", &browser_error);
  ASSERT_EQ(browser_error, "");
  ASSERT_TRUE(tokens.ok()) << tokens.status().to_string();
  ASSERT_TRUE(tokens->id_token.has_value());
  HttpJwksSource keys(issuer_, http_);
  TokenVerifier verifier(config("allot-cli"), keys);
  auto verified = verifier.verify(*tokens->id_token, SystemClock().now());
  ASSERT_TRUE(verified.ok()) << verified.status().to_string();
  EXPECT_EQ(verified->subject, "ada");
  EXPECT_EQ(verified->email, "ada@example.com");
  EXPECT_EQ(verified->name, "Ada Lovelace");
  EXPECT_EQ(verified->groups, (std::vector<std::string>{"research", "admins"}));
  EXPECT_EQ(verified->claims["iss"], issuer_);

  // The same token is not a login to another client.
  TokenVerifier other(config("allot-cli-es"), keys);
  auto refused = other.verify(*tokens->id_token, SystemClock().now());
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("aud"), std::string::npos);
}

TEST_F(OidcRealProvider, DeviceFlowIdTokenVerifiesEs256) {
  std::string browser_error;
  auto tokens = login("allot-cli-es", "bob", "bob-password", &browser_error);
  ASSERT_EQ(browser_error, "");
  ASSERT_TRUE(tokens.ok()) << tokens.status().to_string();
  ASSERT_TRUE(tokens->id_token.has_value());
  auto header = parse_jwt(*tokens->id_token, std::vector<JwsAlg>{JwsAlg::kEs256});
  ASSERT_TRUE(header.ok()) << "the provider signed with ES256: " << header.status().to_string();
  HttpJwksSource keys(issuer_, http_);
  TokenVerifier verifier(config("allot-cli-es"), keys);
  auto verified = verifier.verify(*tokens->id_token, SystemClock().now());
  ASSERT_TRUE(verified.ok()) << verified.status().to_string();
  EXPECT_EQ(verified->subject, "bob");
  EXPECT_EQ(verified->groups, std::vector<std::string>{"research"});
}

TEST_F(OidcRealProvider, WrongPasswordNeverYieldsTokens) {
  HttpJwksSource discovery(issuer_, http_);
  auto metadata = discovery.metadata();
  ASSERT_TRUE(metadata.ok()) << metadata.status().to_string();
  auto started = http_.post_form(*metadata->device_authorization_endpoint,
                                 {{"client_id", "allot-cli"}, {"scope", "openid"}});
  ASSERT_TRUE(started.ok());
  auto authorization = parse_device_authorization(*started, SystemClock().now());
  ASSERT_TRUE(authorization.ok()) << authorization.status().to_string();
  testing::TestBrowser browser(issuer_);
  EXPECT_NE(browser.approve(authorization->user_code, "ada", "wrong"), "");
  DevicePoller poller("allot-cli", *authorization, SystemClock().now());
  poller.on_reply(http_.post_form(*metadata->token_endpoint, poller.poll_form()),
                  SystemClock().now());
  EXPECT_EQ(poller.next(SystemClock().now()), DevicePoller::Action::kWait)
      << "authorization_pending: " << poller.error().to_string();
}

}  // namespace
}  // namespace allot::oidc
