// Passwords of the local provider (single-machine installs, and users that
// SCIM provisions with a password): Argon2id through libsodium's
// crypto_pwhash_str, whose string carries its salt and parameters.
//
// Contract: hash_password() fails (kInvalidArgument) for an empty password
// or one longer than 4,096 bytes, and kResourceExhausted when the KDF could
// not get its memory. verify_password() is false for a wrong password and
// for a hash that is not an Argon2id string. Neither ever logs or returns
// the password. Stateless; thread-safe; deliberately slow (about 0.1 s and
// 64 MiB per call: libsodium's "interactive" limits).
#pragma once

#include <string>
#include <string_view>

#include "base/result.h"

namespace allot::identity {

Result<std::string> hash_password(std::string_view password);
bool verify_password(std::string_view hash, std::string_view password);

}  // namespace allot::identity
