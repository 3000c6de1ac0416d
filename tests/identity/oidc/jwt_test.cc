// The parsing half: strict base64url, strict JSON, the header rules.
#include "identity/oidc/jwt.h"

#include <gtest/gtest.h>

#include "identity/oidc/base64url.h"
#include "identity/oidc/strict_json.h"

namespace allot::oidc {
namespace {

constexpr JwsAlg kDefault[] = {JwsAlg::kRs256, JwsAlg::kEs256};

TEST(JwtBase64url, RoundTripsEveryLength) {
  std::string bytes;
  for (int i = 0; i < 70; ++i) {
    auto decoded = base64url_decode(base64url_encode(bytes), "t");
    ASSERT_TRUE(decoded.ok()) << i;
    EXPECT_EQ(*decoded, bytes);
    bytes.push_back(static_cast<char>(i * 37 + 250));
  }
  EXPECT_EQ(base64url_encode("\xfb\xff"), "-_8");
}

TEST(JwtBase64url, RefusesWhatIsNotStrictBase64url) {
  for (const char* text : {"QQ==", "QQ=", "Q", "QUJD=", "+/8", "ab c", "ab\n", "QR", "QUJDRB"}) {
    EXPECT_FALSE(base64url_decode(text, "t").ok()) << text;
  }
  EXPECT_TRUE(base64url_decode("QQ", "t").ok());
  EXPECT_TRUE(base64url_decode("", "t").ok());
}

TEST(JwtStrictJson, RefusesDuplicatesDepthAndTrailingText) {
  EXPECT_TRUE(parse_strict_json(R"({"a":{"b":1},"c":{"b":2}})", "d").ok());
  EXPECT_FALSE(parse_strict_json(R"({"a":1,"a":1})", "d").ok());
  EXPECT_FALSE(parse_strict_json(R"({"x":{"a":1,"a":2}})", "d").ok());
  EXPECT_FALSE(parse_strict_json(R"({"a":1} x)", "d").ok());
  EXPECT_FALSE(parse_strict_json("\"\xff\"", "d").ok());
  EXPECT_FALSE(parse_strict_json(std::string(100, '[') + std::string(100, ']'), "d").ok());
  EXPECT_TRUE(parse_strict_json(std::string(10, '[') + std::string(10, ']'), "d").ok());
}

std::string token_with_header(const std::string& header) {
  return base64url_encode(header) + "." + base64url_encode(R"({"sub":"a"})") + ".AAAA";
}

TEST(JwtParse, ReadsHeaderClaimsAndSigningInput) {
  const std::string token = token_with_header(R"({"alg":"ES256","kid":"k1","typ":"JWT"})");
  auto jwt = parse_jwt(token, kDefault);
  ASSERT_TRUE(jwt.ok()) << jwt.status().to_string();
  EXPECT_EQ(jwt->alg, JwsAlg::kEs256);
  EXPECT_EQ(jwt->kid, "k1");
  EXPECT_EQ(jwt->claims["sub"], "a");
  EXPECT_EQ(jwt->signing_input, token.substr(0, token.rfind('.')));
  EXPECT_EQ(jwt->signature, std::string(3, '\0'));
}

TEST(JwtParse, AllowListRefusesNoneHmacAndUnlisted) {
  for (const char* alg : {"none", "None", "HS256", "HS384", "HS512", "RS512", "ES384", "EdDSA"}) {
    auto jwt = parse_jwt(token_with_header(std::string(R"({"alg":")") + alg + "\"}"), kDefault);
    ASSERT_FALSE(jwt.ok()) << alg;
    EXPECT_EQ(jwt.status().code(), ErrorCode::kUnauthenticated);
  }
  EXPECT_FALSE(parse_jwt(token_with_header(R"({"alg":"PS256"})"), kDefault).ok());
  constexpr JwsAlg kWithPss[] = {JwsAlg::kPs256};
  EXPECT_TRUE(parse_jwt(token_with_header(R"({"alg":"PS256"})"), kWithPss).ok());
  EXPECT_FALSE(parse_jwt(token_with_header(R"({"alg":["RS256"]})"), kDefault).ok());
  EXPECT_FALSE(parse_jwt(token_with_header(R"({"typ":"JWT"})"), kDefault).ok());
}

TEST(JwtParse, RefusesBadKidCritAndEmptySignature) {
  EXPECT_FALSE(parse_jwt(token_with_header(R"({"alg":"RS256","kid":5})"), kDefault).ok());
  EXPECT_FALSE(parse_jwt(token_with_header(R"({"alg":"RS256","crit":["b64"]})"), kDefault).ok());
  const std::string no_signature = base64url_encode(R"({"alg":"RS256"})") + ".e30.";
  EXPECT_FALSE(parse_jwt(no_signature, kDefault).ok());
}

TEST(JwtParse, ErrorsNeverEchoTheToken) {
  const std::string secretish = "eyJzZWNyZXQiOiJodW50ZXIyIn0";
  for (const std::string& token :
       {secretish, secretish + "." + secretish + ".!!", "e30." + secretish + "." + secretish}) {
    auto jwt = parse_jwt(token, kDefault);
    ASSERT_FALSE(jwt.ok());
    EXPECT_EQ(jwt.status().to_string().find(secretish), std::string::npos);
  }
}

}  // namespace
}  // namespace allot::oidc
