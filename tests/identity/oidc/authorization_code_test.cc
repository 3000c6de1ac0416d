// The authorization code grant's pure parts (identity/oidc/authorization_code.h):
// the PKCE S256 challenge (RFC 7636's own example), the authorization URL
// and the token endpoint's answers.
#include "identity/oidc/authorization_code.h"

#include <gtest/gtest.h>

namespace allot::oidc {
namespace {

class CannedTokenEndpoint final : public HttpPort {
 public:
  explicit CannedTokenEndpoint(Result<HttpReply> reply) : reply_(std::move(reply)) {}
  Result<HttpReply> get(const std::string& /*url*/) override {
    return Status(ErrorCode::kUnavailable, "not used");
  }
  Result<HttpReply> post_form(const std::string& /*url*/, const FormFields& /*fields*/) override {
    return reply_;
  }

 private:
  Result<HttpReply> reply_;
};

Result<std::string> redeem_with(Result<HttpReply> reply) {
  CannedTokenEndpoint endpoint(std::move(reply));
  return redeem_authorization_code({.token_endpoint = "https://idp/token",
                                    .client_id = "c",
                                    .redirect_uri = "http://127.0.0.1/cb",
                                    .code = "secret-code",
                                    .code_verifier = "secret-verifier"},
                                   endpoint);
}

TEST(OidcAuthorizationCode, TheS256ChallengeIsRfc7636sExample) {
  EXPECT_EQ(pkce_s256_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"),
            "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
}

TEST(OidcAuthorizationCode, TheUrlCarriesEveryParameterPercentEncoded) {
  const std::string url =
      authorization_url({.authorization_endpoint = "https://idp/auth?tenant=x",
                         .client_id = "allot web",
                         .redirect_uri = "http://127.0.0.1:8080/ui/oidc/callback",
                         .scope = "openid profile",
                         .state = "s-1",
                         .nonce = "n_1",
                         .code_challenge = "c~1"});

  EXPECT_EQ(url,
            "https://idp/auth?tenant=x&response_type=code&client_id=allot%20web"
            "&redirect_uri=http%3A%2F%2F127.0.0.1%3A8080%2Fui%2Foidc%2Fcallback"
            "&scope=openid%20profile&state=s-1&nonce=n_1&code_challenge=c~1"
            "&code_challenge_method=S256");
}

TEST(OidcAuthorizationCode, TheTokenEndpointsAnswersBecomeTheIdTokenOrAReason) {
  const Result<std::string> ok = redeem_with(
      HttpReply{200, R"({"access_token":"a","token_type":"Bearer","id_token":"i.d.t"})"});
  const Result<std::string> used = redeem_with(HttpReply{400, R"({"error":"invalid_grant"})"});
  const Result<std::string> down = redeem_with(HttpReply{502, "bad gateway"});
  const Result<std::string> no_id = redeem_with(HttpReply{200, R"({"access_token":"a"})"});
  const Result<std::string> unreachable =
      redeem_with(Status(ErrorCode::kUnavailable, "connection refused"));

  ASSERT_TRUE(ok.ok()) << ok.status().to_string();
  EXPECT_EQ(*ok, "i.d.t");
  EXPECT_EQ(used.status().code(), ErrorCode::kUnauthenticated);
  EXPECT_NE(used.status().message().find("HTTP 400, invalid_grant"), std::string::npos)
      << used.status().to_string();
  EXPECT_EQ(used.status().message().find("secret"), std::string::npos);
  EXPECT_EQ(down.status().code(), ErrorCode::kUnavailable);
  EXPECT_EQ(no_id.status().code(), ErrorCode::kUnavailable);
  EXPECT_EQ(unreachable.status().code(), ErrorCode::kUnavailable);
}

}  // namespace
}  // namespace allot::oidc
