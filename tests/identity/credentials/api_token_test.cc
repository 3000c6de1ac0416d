#include "identity/credentials/api_token.h"

#include <set>
#include <string>

#include <gtest/gtest.h>

#include "identity/credentials/secret_codec.h"

namespace allot::identity {
namespace {

const Timestamp kNow = Timestamp::from_millis(1'700'000'000'000);

TEST(ApiToken, IsShownOnceAndOnlyItsHashIsKept) {
  const IssuedApiToken issued = issue_api_token("admin", "admin", {"system:admins"}, kNow);

  EXPECT_TRUE(is_api_token(issued.token));
  EXPECT_EQ(issued.record.hash, api_token_hash(issued.token));
  EXPECT_EQ(issued.record.hash.size(), 64u);
  const std::string stored = api_token_record_json(issued.record).dump();
  EXPECT_EQ(stored.find(issued.token), std::string::npos);
  EXPECT_EQ(stored.find(issued.token.substr(6)), std::string::npos);
}

TEST(ApiToken, EveryTokenIsNew) {
  std::set<std::string> tokens;
  for (int i = 0; i < 100; ++i) tokens.insert(issue_api_token("t", "u", {}, kNow).token);
  EXPECT_EQ(tokens.size(), 100u);
}

TEST(ApiToken, OnlyItsExactShapeIsAToken) {
  const std::string token = issue_api_token("t", "u", {}, kNow).token;
  EXPECT_FALSE(is_api_token(token.substr(1)));
  EXPECT_FALSE(is_api_token(token + "A"));
  EXPECT_FALSE(is_api_token("allot_" + std::string(43, '!')));
  EXPECT_FALSE(is_api_token("allots_" + token.substr(6)));
  EXPECT_FALSE(is_api_token(""));
}

TEST(ApiToken, RecordsRoundTripThroughJson) {
  IssuedApiToken issued = issue_api_token("ci", "system:serviceaccount:vision:ci", {"a", "b"}, kNow,
                                          kNow + Duration::hours(24));
  const Result<ApiTokenRecord> back =
      api_token_record_from_json(api_token_record_json(issued.record));
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, issued.record);
  EXPECT_EQ(api_token_record_from_json(nlohmann::json{{"id", 3}}).status().code(),
            ErrorCode::kInternal);
}

TEST(SecretCodec, Base64urlIsStrict) {
  EXPECT_EQ(base64url_decode(base64url_encode(std::string("\0\xff\x10 ab", 6))),
            std::string("\0\xff\x10 ab", 6));
  EXPECT_EQ(base64url_encode("\xfb\xff"), "-_8");
  EXPECT_FALSE(base64url_decode("ab+/").has_value()) << "the standard alphabet is not base64url";
  EXPECT_FALSE(base64url_decode("YQ==").has_value()) << "no padding";
  EXPECT_FALSE(base64url_decode("Y Q").has_value());
  EXPECT_EQ(sha256_hex("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");  // FIPS 180-2
}

TEST(SecretCodec, AWipedSecretIsGoneFromItsBuffer) {
  std::string secret = "scim-token-0123456789abcdef";
  secret.reserve(64);
  const char* bytes = secret.data();
  const size_t size = secret.size();
  wipe_secret(secret);
  EXPECT_TRUE(secret.empty());
  EXPECT_EQ(secret.data(), bytes) << "cleared in place, not reallocated";
  EXPECT_EQ(std::string(bytes, size), std::string(size, '\0'));
}

}  // namespace
}  // namespace allot::identity
