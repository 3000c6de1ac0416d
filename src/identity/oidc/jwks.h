// JSON Web Key Sets (RFC 7517): the issuer's public signing keys, as OpenSSL
// EVP_PKEY objects.
//
// Contract: parse_jwks() reads {"keys": [...]} and keeps the signature keys
// it understands: RSA (`n`, `e`; at least 2048 bits) and EC on P-256 (`crv`,
// `x`, `y`; the point must lie on the curve). A key whose `use` is present
// and not "sig", or whose `kty`/`crv` is another kind (oct, OKP, P-384), is
// skipped: issuers publish such keys beside their signing keys. A key of a
// kind we understand that is malformed (bad base64url, wrong lengths, a point
// off the curve, private members `d`/`p`/... present) makes the whole
// document an error, as do a missing `keys` array and two keys with the same
// `kid`. Nothing here aborts on input. Jwks is an immutable value; its keys
// are shared, read-only, and safe to use from several threads.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <openssl/evp.h>

#include "base/result.h"
#include "identity/oidc/jwt.h"

namespace allot::oidc {

inline constexpr size_t kMaxJwksBytes = size_t{512} * 1024;
inline constexpr size_t kMaxJwksKeys = 64;

struct EvpPkeyFree {
  void operator()(EVP_PKEY* key) const { EVP_PKEY_free(key); }
};
using PublicKey = std::shared_ptr<EVP_PKEY>;

enum class KeyType { kRsa, kEcP256 };

struct Jwk {
  std::optional<std::string> kid;
  KeyType type = KeyType::kRsa;
  // The JWK's `alg`, when it names one we know; a key with an `alg` we do not
  // know is skipped at parse time.
  std::optional<JwsAlg> alg;
  PublicKey key;

  // Whether this key may verify a signature made with `token_alg`.
  [[nodiscard]] bool fits(JwsAlg token_alg) const;
};

class Jwks {
 public:
  Jwks() = default;
  explicit Jwks(std::vector<Jwk> keys) : keys_(std::move(keys)) {}

  // The key for a token's header: with a kid, the key of that kid (if it fits
  // `alg`); without one, the only key that fits `alg`, if there is exactly one.
  [[nodiscard]] const Jwk* find(const std::optional<std::string>& kid, JwsAlg alg) const;
  [[nodiscard]] bool has_kid(const std::string& kid) const;
  [[nodiscard]] const std::vector<Jwk>& keys() const { return keys_; }

 private:
  std::vector<Jwk> keys_;
};

Result<Jwks> parse_jwks(std::string_view document);

}  // namespace allot::oidc
