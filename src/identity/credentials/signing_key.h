// Ed25519 signing keys (libsodium crypto_sign): the audit log's checkpoint
// key (docs/governance.md), generated at allotd's first start.
//
// Contract: generate_signing_key() draws a new key pair. Keys are kept as
// text: the secret key as 128 hex digits (64 bytes: seed and public key, as
// libsodium holds it), the public key as 64 hex digits; parse functions
// refuse anything else. sign_hex() returns the 64-byte detached signature in
// hex; verify_hex() is false for any signature, key or hex that is not
// valid. No function logs a key. Thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace allot::identity {

struct SigningKey {
  std::string secret;      // 64 raw bytes
  std::string public_key;  // 32 raw bytes
};

SigningKey generate_signing_key();
std::string signing_key_text(const SigningKey& key);  // the secret, hex
std::optional<SigningKey> parse_signing_key(std::string_view text);
std::string public_key_text(const SigningKey& key);                  // hex
std::optional<std::string> parse_public_key(std::string_view text);  // 32 raw bytes

std::string sign_hex(const SigningKey& key, std::string_view message);
bool verify_hex(std::string_view public_key, std::string_view message,
                std::string_view signature_hex);

}  // namespace allot::identity
