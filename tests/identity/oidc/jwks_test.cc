// JWKS parsing: RSA and P-256 keys into EVP_PKEY; what is skipped, what is an error.
#include "identity/oidc/jwks.h"

#include <gtest/gtest.h>

#include "identity/oidc/base64url.h"
#include "test_signer.h"

namespace allot::oidc {
namespace {

using nlohmann::json;
using testing::TestSigner;

std::string doc(std::initializer_list<json> keys) { return testing::jwks_of(keys); }

TEST(JwksParse, ReadsRsaAndEcKeys) {
  const TestSigner rsa = TestSigner::rsa("r");
  const TestSigner ec = TestSigner::ec("e");
  auto jwks = parse_jwks(doc({rsa.jwk(), ec.jwk()}));
  ASSERT_TRUE(jwks.ok()) << jwks.status().to_string();
  ASSERT_EQ(jwks->keys().size(), 2u);
  EXPECT_EQ(jwks->find(std::string("r"), JwsAlg::kRs256)->type, KeyType::kRsa);
  EXPECT_EQ(jwks->find(std::string("e"), JwsAlg::kEs256)->type, KeyType::kEcP256);
  EXPECT_EQ(jwks->find(std::string("r"), JwsAlg::kEs256), nullptr) << "alg must fit the key";
  EXPECT_EQ(jwks->find(std::string("r"), JwsAlg::kPs256), nullptr) << "the JWK says RS256";
  EXPECT_EQ(jwks->find(std::string("x"), JwsAlg::kRs256), nullptr);
}

TEST(JwksParse, SkipsKeysNotForSignaturesOrOfOtherKinds) {
  const TestSigner rsa = TestSigner::rsa("r");
  json enc = rsa.jwk();
  enc["use"] = "enc";
  enc["kid"] = "enc";
  json rs512 = rsa.jwk();
  rs512["alg"] = "RS512";
  rs512["kid"] = "512";
  const json oct = {{"kty", "oct"}, {"kid", "o"}};
  const json okp = {{"kty", "OKP"}, {"crv", "Ed25519"}, {"x", "AAAA"}};
  const json p384 = {{"kty", "EC"}, {"crv", "P-384"}, {"x", "AA"}, {"y", "AA"}};
  auto jwks = parse_jwks(doc({enc, rs512, oct, okp, p384, rsa.jwk()}));
  ASSERT_TRUE(jwks.ok()) << jwks.status().to_string();
  ASSERT_EQ(jwks->keys().size(), 1u);
  EXPECT_EQ(jwks->keys()[0].kid, "r");
}

TEST(JwksParse, MalformedKeysAreErrors) {
  const TestSigner rsa = TestSigner::rsa("r");
  const TestSigner ec = TestSigner::ec("e");
  std::vector<json> bad;
  auto with = [](json jwk, const char* member, json value) {
    if (value.is_null()) {
      jwk.erase(member);
    } else {
      jwk[member] = std::move(value);
    }
    return jwk;
  };
  bad.push_back(with(rsa.jwk(), "n", "not base64!"));
  bad.push_back(with(rsa.jwk(), "n", nullptr));
  bad.push_back(with(rsa.jwk(), "n", base64url_encode(std::string(128, '\x7f'))));  // 1024 bits
  bad.push_back(with(rsa.jwk(), "e", "AA"));
  bad.push_back(with(rsa.jwk(), "e", "Ag"));    // even
  bad.push_back(with(rsa.jwk(), "d", "AQAB"));  // a private key
  bad.push_back(with(rsa.jwk(), "kid", 7));
  bad.push_back(with(rsa.jwk(), "kty", nullptr));
  bad.push_back(with(ec.jwk(), "x", "AAAA"));
  bad.push_back(with(ec.jwk(), "y", base64url_encode(std::string(32, '\x01'))));  // off curve
  bad.push_back(with(ec.jwk(), "x", base64url_encode(std::string(32, '\0'))));
  for (const json& jwk : bad) {
    auto jwks = parse_jwks(doc({jwk}));
    EXPECT_FALSE(jwks.ok()) << jwk.dump();
    if (!jwks.ok()) {
      EXPECT_EQ(jwks.status().code(), ErrorCode::kInvalidArgument);
    }
  }
}

TEST(JwksParse, MalformedDocumentsAreErrors) {
  const TestSigner rsa = TestSigner::rsa("r");
  for (const std::string& text :
       {std::string(""), std::string("[]"), std::string("{}"), std::string(R"({"keys":{}})"),
        std::string(R"({"keys":[1]})"), std::string(R"({"keys":[],"keys":[]})"),
        doc({rsa.jwk(), rsa.jwk()}), std::string(kMaxJwksBytes + 1, ' ')}) {
    EXPECT_FALSE(parse_jwks(text).ok()) << text.substr(0, 80);
  }
  EXPECT_TRUE(parse_jwks(R"({"keys":[]})").ok());
}

}  // namespace
}  // namespace allot::oidc
