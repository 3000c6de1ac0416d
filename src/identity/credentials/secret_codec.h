// Small cryptographic building blocks of allot's credentials, all from
// libsodium (a well-kept library: never hand-written crypto): random bytes,
// base64url without padding, SHA-256, HMAC-SHA-256, comparison in constant
// time, wiping a secret from memory.
//
// Contract: stateless functions; thread-safe (libsodium is initialised once,
// on first use, by sodium_init(), which is itself thread-safe). decode
// functions return nullopt for anything that is not exactly their format.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace allot::identity {

// `count` bytes from the operating system's generator.
std::string random_bytes(size_t count);

std::string base64url_encode(std::string_view bytes);
std::optional<std::string> base64url_decode(std::string_view text);

// Lower-case hex of SHA-256(bytes).
std::string sha256_hex(std::string_view bytes);

// HMAC-SHA-256 of `message` under `key` (32 raw bytes).
std::string hmac_sha256(std::string_view key, std::string_view message);

// Equal in time that depends on the length only.
bool constant_time_equal(std::string_view a, std::string_view b);

// Overwrites the bytes of `secret` with zeros (in a way the compiler keeps),
// then empties it: for a secret read in clear that is to be kept only as a
// hash (the SCIM token).
void wipe_secret(std::string& secret);

}  // namespace allot::identity
