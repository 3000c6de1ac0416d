// TokenVerifier against keys and tokens made in the test (test_signer.h): the
// good tokens pass, and each attack or mistake is refused for its reason.
#include "identity/oidc/token_verifier.h"

#include <gtest/gtest.h>

#include "fake_jwks_source.h"
#include "identity/oidc/base64url.h"
#include "test_signer.h"

namespace allot::oidc {
namespace {

using nlohmann::json;
using testing::FakeJwksSource;
using testing::TestSigner;

constexpr char kIssuer[] = "https://idp.example.com/realms/research";
constexpr char kClient[] = "allot";
constexpr int64_t kNow = 1'800'000'000;  // seconds

VerifierConfig config() {
  VerifierConfig config;
  config.issuer = kIssuer;
  config.client_id = kClient;
  return config;
}

Timestamp at(int64_t seconds) { return Timestamp::from_millis(seconds * 1000); }

json good_claims() {
  return {{"iss", kIssuer},
          {"aud", kClient},
          {"sub", "u-1234"},
          {"exp", kNow + 300},
          {"iat", kNow - 10},
          {"nbf", kNow - 10},
          {"email", "ada@example.com"},
          {"name", "Ada"},
          {"groups", {"research", "admins"}}};
}

// Key generation is slow in a debug build: one pair of keys for the whole suite.
const TestSigner& shared_rsa() {
  static const TestSigner* signer = new TestSigner(TestSigner::rsa("rsa-1"));
  return *signer;
}
const TestSigner& shared_ec() {
  static const TestSigner* signer = new TestSigner(TestSigner::ec("ec-1"));
  return *signer;
}

class OidcVerifierTest : public ::testing::Test {
 protected:
  OidcVerifierTest()
      : rsa_(shared_rsa()),
        ec_(shared_ec()),
        source_(testing::jwks_of({rsa_.jwk(), ec_.jwk()})),
        verifier_(config(), source_) {}

  Result<VerifiedToken> verify(const std::string& token, int64_t now = kNow) {
    return verifier_.verify(token, at(now));
  }
  void expect_refused(const std::string& token, const std::string& why, int64_t now = kNow) {
    auto result = verify(token, now);
    ASSERT_FALSE(result.ok()) << why;
    EXPECT_EQ(result.status().code(), ErrorCode::kUnauthenticated) << result.status().to_string();
    EXPECT_NE(result.status().message().find(why), std::string::npos) << result.status().message();
    if (!token.empty()) {
      EXPECT_EQ(result.status().message().find(token), std::string::npos) << "token echoed";
    }
  }

  const TestSigner& rsa_;
  const TestSigner& ec_;
  FakeJwksSource source_;
  TokenVerifier verifier_;
};

TEST_F(OidcVerifierTest, AcceptsGoodRs256Token) {
  auto result = verify(rsa_.sign(good_claims()));
  ASSERT_TRUE(result.ok()) << result.status().to_string();
  EXPECT_EQ(result->subject, "u-1234");
  EXPECT_EQ(result->issuer, kIssuer);
  EXPECT_EQ(result->email, "ada@example.com");
  EXPECT_EQ(result->name, "Ada");
  EXPECT_EQ(result->groups, (std::vector<std::string>{"research", "admins"}));
  EXPECT_EQ(result->expires_at, at(kNow + 300));
  EXPECT_EQ(result->issued_at, at(kNow - 10));
  EXPECT_EQ(result->claims["sub"], "u-1234");
}

TEST_F(OidcVerifierTest, AcceptsGoodEs256Token) {
  auto result = verify(ec_.sign(good_claims()));
  ASSERT_TRUE(result.ok()) << result.status().to_string();
  EXPECT_EQ(result->subject, "u-1234");
}

TEST_F(OidcVerifierTest, AcceptsAudienceArrayContainingClientAndMatchingAzp) {
  json claims = good_claims();
  claims["aud"] = {"other-api", kClient};
  claims["azp"] = kClient;
  EXPECT_TRUE(verify(rsa_.sign(claims)).ok());
}

TEST_F(OidcVerifierTest, PS256OnlyWhenAllowed) {
  json claims = good_claims();
  const std::string token = rsa_.sign(claims, {{"alg", "PS256"}});
  expect_refused(token, "alg");  // not in the default allow-list
  FakeJwksSource source(testing::jwks_of({[&] {
    json jwk = rsa_.jwk();
    jwk.erase("alg");
    return jwk;
  }()}));
  VerifierConfig with_pss = config();
  with_pss.allowed_algs = {JwsAlg::kRs256, JwsAlg::kPs256};
  TokenVerifier pss(with_pss, source);
  auto result = pss.verify(token, at(kNow));
  EXPECT_TRUE(result.ok()) << result.status().to_string();
}

TEST_F(OidcVerifierTest, RefusesWrongIssuer) {
  json claims = good_claims();
  claims["iss"] = "https://idp.example.com/realms/research/";  // trailing slash: not equal
  expect_refused(rsa_.sign(claims), "claim iss");
}

TEST_F(OidcVerifierTest, RefusesWrongAudience) {
  json claims = good_claims();
  claims["aud"] = "another-client";
  expect_refused(rsa_.sign(claims), "claim aud");
  claims["aud"] = {"a", "b"};
  expect_refused(rsa_.sign(claims), "claim aud");
  claims.erase("aud");
  expect_refused(rsa_.sign(claims), "claim aud");
}

TEST_F(OidcVerifierTest, RefusesAccessTokenForAnotherApiEvenWithOurAzp) {
  json claims = good_claims();
  claims["aud"] = "account";
  claims["azp"] = kClient;
  expect_refused(rsa_.sign(claims), "claim aud");
  claims["aud"] = kClient;
  claims["azp"] = "someone-else";
  expect_refused(rsa_.sign(claims), "claim azp");
}

TEST_F(OidcVerifierTest, ExpiryHonoursLeeway) {
  json claims = good_claims();
  claims["exp"] = kNow - 30;  // expired, but within the 60 s leeway
  EXPECT_TRUE(verify(rsa_.sign(claims)).ok());
  claims["exp"] = kNow - 60;  // exactly at the leeway's end
  expect_refused(rsa_.sign(claims), "claim exp");
  claims["exp"] = kNow - 3600;
  expect_refused(rsa_.sign(claims), "claim exp");
}

TEST_F(OidcVerifierTest, RefusesMissingOrMalformedExp) {
  json claims = good_claims();
  claims.erase("exp");
  expect_refused(rsa_.sign(claims), "claim exp is missing");
  claims["exp"] = "tomorrow";
  expect_refused(rsa_.sign(claims), "claim exp is not a number");
  claims["exp"] = 1e300;
  expect_refused(rsa_.sign(claims), "claim exp is out of range");
}

TEST_F(OidcVerifierTest, NotBeforeAndIssuedAtHonourLeeway) {
  json claims = good_claims();
  claims["nbf"] = kNow + 30;  // within leeway (clock skew)
  EXPECT_TRUE(verify(rsa_.sign(claims)).ok());
  claims["nbf"] = kNow + 61;
  expect_refused(rsa_.sign(claims), "claim nbf");
  claims["nbf"] = kNow;
  claims["iat"] = kNow + 120;
  expect_refused(rsa_.sign(claims), "claim iat");
}

TEST_F(OidcVerifierTest, RefusesMissingSubject) {
  json claims = good_claims();
  claims["sub"] = "";
  expect_refused(rsa_.sign(claims), "claim sub");
}

TEST_F(OidcVerifierTest, GroupsClaimIsConfigurableAndChecked) {
  FakeJwksSource source(testing::jwks_of({rsa_.jwk()}));
  VerifierConfig roles = config();
  roles.groups_claim = "roles";
  TokenVerifier verifier(roles, source);
  json claims = good_claims();
  claims["roles"] = "gpu-users";
  auto result = verifier.verify(rsa_.sign(claims), at(kNow));
  ASSERT_TRUE(result.ok()) << result.status().to_string();
  EXPECT_EQ(result->groups, std::vector<std::string>{"gpu-users"});
  claims["roles"] = {"a", 7};
  EXPECT_FALSE(verifier.verify(rsa_.sign(claims), at(kNow)).ok());
}

TEST_F(OidcVerifierTest, RefusesTamperedPayload) {
  const std::string token = rsa_.sign(good_claims());
  json claims = good_claims();
  claims["sub"] = "admin";
  const size_t first = token.find('.');
  const size_t second = token.find('.', first + 1);
  const std::string forged =
      token.substr(0, first + 1) + base64url_encode(claims.dump()) + token.substr(second);
  expect_refused(forged, "bad signature");
}

TEST_F(OidcVerifierTest, RefusesTamperedSignature) {
  for (const TestSigner* signer : {&rsa_, &ec_}) {
    std::string token = signer->sign(good_claims());
    const size_t dot = token.rfind('.');
    std::string signature = base64url_decode(token.substr(dot + 1), "sig").value();
    signature[signature.size() / 2] ^= 0x01;
    expect_refused(token.substr(0, dot + 1) + base64url_encode(signature), "bad signature");
  }
}

TEST_F(OidcVerifierTest, RefusesSignatureOfTheOtherKeyType) {
  // An ES256 token pointing at the RSA key's kid: the key does not fit the alg.
  expect_refused(ec_.sign(good_claims(), {{"kid", "rsa-1"}}), "kid");
}

TEST_F(OidcVerifierTest, RefusesAlgNone) {
  expect_refused(testing::unsigned_token(good_claims()), "alg");
  expect_refused(testing::assemble({{"alg", "none"}, {"kid", "rsa-1"}}, good_claims(), "x"), "alg");
}

TEST_F(OidcVerifierTest, RefusesHs256KeyedWithThePublicKey) {
  // The classic key-confusion attack: HMAC with the RSA public key as secret.
  expect_refused(testing::hs256_token(good_claims(), rsa_.public_pem(), "rsa-1"), "alg");
  const std::string n = base64url_decode(rsa_.jwk()["n"].get<std::string>(), "n").value();
  expect_refused(testing::hs256_token(good_claims(), n, "rsa-1"), "alg");
  EXPECT_EQ(source_.fetches(), 0) << "refused before any key is looked at";
}

TEST_F(OidcVerifierTest, RefusesCritHeader) {
  expect_refused(rsa_.sign(good_claims(), {{"crit", {"exp"}}}), "crit");
}

TEST_F(OidcVerifierTest, RefusesMalformedTokens) {
  const std::string good = rsa_.sign(good_claims());
  expect_refused("", "not a JWS");
  expect_refused("abc", "not a JWS");
  expect_refused(good + ".x", "more than three");
  expect_refused("e30=." + good.substr(good.find('.') + 1), "base64url");  // padding
  expect_refused("e3 0." + good.substr(good.find('.') + 1), "base64url");
  expect_refused(base64url_encode("{\"alg\":\"RS256\"") + ".e30.AAAA", "JSON");
  expect_refused(base64url_encode("[1]") + ".e30.AAAA", "not a JSON object");
  expect_refused(base64url_encode(R"({"alg":"RS256","alg":"none"})") + ".e30.AAAA", "duplicate");
  expect_refused(std::string(kMaxTokenBytes + 1, 'a'), "16 KiB");
  const std::string dup_claims = base64url_encode(R"({"alg":"RS256","kid":"rsa-1"})") + "." +
                                 base64url_encode(R"({"sub":"a","sub":"b"})") + ".AAAA";
  expect_refused(dup_claims, "duplicate");
}

TEST_F(OidcVerifierTest, UnknownKidRefetchesExactlyOnce) {
  ASSERT_TRUE(verify(rsa_.sign(good_claims())).ok());
  EXPECT_EQ(source_.fetches(), 1);
  const TestSigner stranger = TestSigner::rsa("stranger");
  expect_refused(stranger.sign(good_claims()), "kid", kNow + 120);
  EXPECT_EQ(source_.fetches(), 2);
}

TEST_F(OidcVerifierTest, ForgedKidStormCannotHammerTheIssuer) {
  ASSERT_TRUE(verify(rsa_.sign(good_claims())).ok());
  for (int i = 0; i < 300; ++i) {
    expect_refused(rsa_.sign(good_claims(), {{"kid", "forged-" + std::to_string(i)}}), "kid",
                   kNow + i / 30);  // 300 tokens over 10 s
  }
  EXPECT_EQ(source_.fetches(), 1) << "the first fetch was under 60 s ago: no refetch";
  expect_refused(rsa_.sign(good_claims(), {{"kid", "forged-late"}}), "kid", kNow + 61);
  EXPECT_EQ(source_.fetches(), 2);
  EXPECT_TRUE(verify(rsa_.sign(good_claims()), kNow + 62).ok()) << "good tokens still pass";
  EXPECT_EQ(source_.fetches(), 2);
}

TEST_F(OidcVerifierTest, KeyRotation) {
  ASSERT_TRUE(verify(rsa_.sign(good_claims())).ok());
  // The issuer adds a new key and signs with it: accepted after one refetch.
  const TestSigner next = TestSigner::rsa("rsa-2");
  source_.serve(testing::jwks_of({rsa_.jwk(), next.jwk()}));
  json claims = good_claims();
  claims["exp"] = kNow + 7200;
  EXPECT_TRUE(verify(next.sign(claims), kNow + 90).ok());
  EXPECT_EQ(source_.fetches(), 2);
  // Then removes the old key: once the cache is refreshed, old tokens are refused.
  source_.serve(testing::jwks_of({next.jwk()}));
  EXPECT_TRUE(verify(rsa_.sign(claims), kNow + 100).ok()) << "cached until refreshed";
  expect_refused(rsa_.sign(claims), "kid", kNow + 90 + 3600 - 1 + 2);
  EXPECT_TRUE(verify(next.sign(claims), kNow + 90 + 3600 + 2).ok());
}

TEST_F(OidcVerifierTest, IssuerDownKeepsCachedKeys) {
  ASSERT_TRUE(verify(rsa_.sign(good_claims())).ok());
  source_.set_down(true);
  json claims = good_claims();
  claims["exp"] = kNow + 7200;
  EXPECT_TRUE(verify(rsa_.sign(claims), kNow + 3601).ok()) << "stale keys beat an outage";
  EXPECT_EQ(source_.fetches(), 2);
}

TEST(OidcVerifier, NoJwksIsUnavailableAndRateLimited) {
  FakeJwksSource source("not json");
  TokenVerifier verifier(config(), source);
  const TestSigner& rsa = shared_rsa();
  for (int i = 0; i < 10; ++i) {
    auto result = verifier.verify(rsa.sign(good_claims()), at(kNow + i));
    ASSERT_FALSE(result.ok());
    EXPECT_EQ(result.status().code(), ErrorCode::kUnavailable);
  }
  EXPECT_EQ(source.fetches(), 1);
  source.serve(testing::jwks_of({rsa.jwk()}));
  EXPECT_TRUE(verifier.verify(rsa.sign(good_claims()), at(kNow + 60)).ok());
}

TEST(OidcVerifier, TokenWithoutKidUsesTheOnlyFittingKey) {
  const TestSigner& rsa = shared_rsa();
  const TestSigner& ec = shared_ec();
  FakeJwksSource source(testing::jwks_of({rsa.jwk(), ec.jwk()}));
  TokenVerifier verifier(config(), source);
  const std::string token = ec.sign(good_claims(), {{"kid", nullptr}});
  auto result = verifier.verify(token, at(kNow));
  EXPECT_TRUE(result.ok()) << result.status().to_string();
  // Two RSA keys and no kid: ambiguous, refused.
  const TestSigner rsa2 = TestSigner::rsa("rsa-2");
  FakeJwksSource two(testing::jwks_of({rsa.jwk(), rsa2.jwk()}));
  TokenVerifier strict(config(), two);
  EXPECT_FALSE(strict.verify(rsa.sign(good_claims(), {{"kid", nullptr}}), at(kNow)).ok());
}

}  // namespace
}  // namespace allot::oidc
