#include "identity/credentials/password_hash.h"

#include <sodium.h>

#include "base/check.h"

namespace allot::identity {
namespace {

constexpr size_t kMaxPasswordBytes = 4096;

}  // namespace

Result<std::string> hash_password(std::string_view password) {
  ALLOT_CHECK(sodium_init() >= 0);
  if (password.empty() || password.size() > kMaxPasswordBytes) {
    return invalid_argument("a password must have 1 to 4,096 bytes", "password");
  }
  char hash[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(hash, password.data(), password.size(),
                            crypto_pwhash_OPSLIMIT_INTERACTIVE, crypto_pwhash_MEMLIMIT_INTERACTIVE,
                            crypto_pwhash_ALG_ARGON2ID13) != 0) {
    return Status(ErrorCode::kResourceExhausted, "the password KDF could not get its memory");
  }
  return std::string(hash);
}

bool verify_password(std::string_view hash, std::string_view password) {
  ALLOT_CHECK(sodium_init() >= 0);
  if (hash.size() >= crypto_pwhash_STRBYTES || password.size() > kMaxPasswordBytes ||
      !hash.starts_with("$argon2id$")) {
    return false;
  }
  const std::string terminated(hash);
  return crypto_pwhash_str_verify(terminated.c_str(), password.data(), password.size()) == 0;
}

}  // namespace allot::identity
