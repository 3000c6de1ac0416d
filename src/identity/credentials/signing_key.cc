#include "identity/credentials/signing_key.h"

#include <sodium.h>

#include "base/check.h"

namespace allot::identity {
namespace {

void ensure_sodium_ready() { ALLOT_CHECK(sodium_init() >= 0); }

const unsigned char* bytes_of(std::string_view text) {
  return reinterpret_cast<const unsigned char*>(text.data());
}

std::string to_hex(std::string_view raw) {
  std::string hex(raw.size() * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), bytes_of(raw), raw.size());
  hex.resize(raw.size() * 2);
  return hex;
}

std::optional<std::string> from_hex(std::string_view hex, size_t size) {
  if (hex.size() != size * 2) return std::nullopt;
  for (const char c : hex) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return std::nullopt;
  }
  std::string raw(size, '\0');
  size_t length = 0;
  if (sodium_hex2bin(reinterpret_cast<unsigned char*>(raw.data()), raw.size(), hex.data(),
                     hex.size(), nullptr, &length, nullptr) != 0 ||
      length != size) {
    return std::nullopt;
  }
  return raw;
}

}  // namespace

SigningKey generate_signing_key() {
  ensure_sodium_ready();
  SigningKey key{std::string(crypto_sign_SECRETKEYBYTES, '\0'),
                 std::string(crypto_sign_PUBLICKEYBYTES, '\0')};
  crypto_sign_keypair(reinterpret_cast<unsigned char*>(key.public_key.data()),
                      reinterpret_cast<unsigned char*>(key.secret.data()));
  return key;
}

std::string signing_key_text(const SigningKey& key) {
  ensure_sodium_ready();
  return to_hex(key.secret);
}

std::optional<SigningKey> parse_signing_key(std::string_view text) {
  ensure_sodium_ready();
  std::optional<std::string> secret = from_hex(text, crypto_sign_SECRETKEYBYTES);
  if (!secret) return std::nullopt;
  SigningKey key{std::move(*secret), std::string(crypto_sign_PUBLICKEYBYTES, '\0')};
  crypto_sign_ed25519_sk_to_pk(reinterpret_cast<unsigned char*>(key.public_key.data()),
                               bytes_of(key.secret));
  return key;
}

std::string public_key_text(const SigningKey& key) {
  ensure_sodium_ready();
  return to_hex(key.public_key);
}

std::optional<std::string> parse_public_key(std::string_view text) {
  ensure_sodium_ready();
  return from_hex(text, crypto_sign_PUBLICKEYBYTES);
}

std::string sign_hex(const SigningKey& key, std::string_view message) {
  ensure_sodium_ready();
  std::string signature(crypto_sign_BYTES, '\0');
  crypto_sign_detached(reinterpret_cast<unsigned char*>(signature.data()), nullptr,
                       bytes_of(message), message.size(), bytes_of(key.secret));
  return to_hex(signature);
}

bool verify_hex(std::string_view public_key, std::string_view message,
                std::string_view signature_hex) {
  ensure_sodium_ready();
  if (public_key.size() != crypto_sign_PUBLICKEYBYTES) return false;
  const std::optional<std::string> signature = from_hex(signature_hex, crypto_sign_BYTES);
  if (!signature) return false;
  return crypto_sign_verify_detached(bytes_of(*signature), bytes_of(message), message.size(),
                                     bytes_of(public_key)) == 0;
}

}  // namespace allot::identity
