#include "identity/credentials/secret_codec.h"

#include <cstdint>

#include <sodium.h>

#include "base/check.h"

namespace allot::identity {
namespace {

// sodium_init() is idempotent and thread-safe; it fails only when the
// system's random source cannot be opened, which no credential can survive.
void ensure_sodium() { ALLOT_CHECK(sodium_init() >= 0); }

constexpr int kVariant = sodium_base64_VARIANT_URLSAFE_NO_PADDING;

}  // namespace

std::string random_bytes(size_t count) {
  ensure_sodium();
  std::string bytes(count, '\0');
  randombytes_buf(bytes.data(), bytes.size());
  return bytes;
}

std::string base64url_encode(std::string_view bytes) {
  ensure_sodium();
  std::string text(sodium_base64_ENCODED_LEN(bytes.size(), kVariant), '\0');
  sodium_bin2base64(text.data(), text.size(), reinterpret_cast<const unsigned char*>(bytes.data()),
                    bytes.size(), kVariant);
  text.resize(text.size() - 1);  // the terminating NUL
  return text;
}

std::optional<std::string> base64url_decode(std::string_view text) {
  ensure_sodium();
  std::string bytes(text.size(), '\0');
  size_t length = 0;
  const char* end = nullptr;
  if (sodium_base642bin(reinterpret_cast<unsigned char*>(bytes.data()), bytes.size(), text.data(),
                        text.size(), nullptr, &length, &end, kVariant) != 0 ||
      end != text.data() + text.size()) {
    return std::nullopt;
  }
  bytes.resize(length);
  return bytes;
}

std::string sha256_hex(std::string_view bytes) {
  ensure_sodium();
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  char hex[crypto_hash_sha256_BYTES * 2 + 1];
  sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
  return {hex, crypto_hash_sha256_BYTES * 2};
}

std::string hmac_sha256(std::string_view key, std::string_view message) {
  ensure_sodium();
  crypto_auth_hmacsha256_state state;
  crypto_auth_hmacsha256_init(&state, reinterpret_cast<const unsigned char*>(key.data()),
                              key.size());
  crypto_auth_hmacsha256_update(&state, reinterpret_cast<const unsigned char*>(message.data()),
                                message.size());
  std::string mac(crypto_auth_hmacsha256_BYTES, '\0');
  crypto_auth_hmacsha256_final(&state, reinterpret_cast<unsigned char*>(mac.data()));
  return mac;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  ensure_sodium();
  return a.size() == b.size() && sodium_memcmp(a.data(), b.data(), a.size()) == 0;
}

void wipe_secret(std::string& secret) {
  ensure_sodium();
  sodium_memzero(secret.data(), secret.size());
  secret.clear();
}

}  // namespace allot::identity
