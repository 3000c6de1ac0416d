#include "identity/credentials/password_hash.h"

#include <string>

#include <gtest/gtest.h>

namespace allot::identity {
namespace {

TEST(PasswordHash, Argon2idVerifiesTheRightPasswordOnly) {
  const Result<std::string> hash = hash_password("correct horse battery staple");
  ASSERT_TRUE(hash.ok()) << hash.status().to_string();

  EXPECT_TRUE(hash->starts_with("$argon2id$"));
  EXPECT_EQ(hash->find("correct horse"), std::string::npos);
  EXPECT_TRUE(verify_password(*hash, "correct horse battery staple"));
  EXPECT_FALSE(verify_password(*hash, "correct horse battery stapl"));
  EXPECT_FALSE(verify_password(*hash, ""));
}

TEST(PasswordHash, TheSamePasswordHashesDifferentlyEachTime) {
  EXPECT_NE(*hash_password("pw"), *hash_password("pw")) << "a salt of its own";
}

TEST(PasswordHash, BadPasswordsAndHashesAreRefused) {
  EXPECT_EQ(hash_password("").status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(hash_password(std::string(4097, 'x')).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_FALSE(verify_password("", "pw"));
  EXPECT_FALSE(verify_password("$2b$10$notargon", "pw"));
  EXPECT_FALSE(verify_password(std::string(500, '$'), "pw"));
}

}  // namespace
}  // namespace allot::identity
