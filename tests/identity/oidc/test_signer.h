// TestSigner: a test-only issuer. Generates an RSA-2048 or EC P-256 key with
// OpenSSL, publishes it as a JWK, and signs JWTs with it (RS256, PS256,
// ES256), plus the forgeries the tests need (alg none, HS256 keyed with the
// public key's bytes). Not for production: keys live in memory only.
#pragma once

#include <memory>
#include <string>

#include <nlohmann/json.hpp>
#include <openssl/evp.h>

namespace allot::oidc::testing {

class TestSigner {
 public:
  static TestSigner rsa(std::string kid);
  static TestSigner ec(std::string kid);
  // A signer with someone else's private key (PKCS#8 PEM, RSA or EC P-256):
  // the tests' OpenID provider writes its keys so (scripts/oidc-provider).
  static TestSigner from_private_pem(std::string kid, const std::string& pem);

  // The public JWK (with kid, use "sig", alg).
  [[nodiscard]] nlohmann::json jwk() const;
  // The public key as PEM (SubjectPublicKeyInfo): what a key-confusion attacker holds.
  [[nodiscard]] std::string public_pem() const;

  // "header.payload.signature" with alg RS256/PS256 (RSA) or ES256 (EC) and
  // this signer's kid, unless `header` overrides members.
  [[nodiscard]] std::string sign(const nlohmann::json& claims,
                                 const nlohmann::json& header = nlohmann::json::object()) const;

  [[nodiscard]] const std::string& kid() const { return kid_; }

 private:
  TestSigner(std::string kid, bool is_rsa, EVP_PKEY* key);
  std::string kid_;
  bool is_rsa_;
  std::shared_ptr<EVP_PKEY> key_;
};

// {"keys": [...]} of the given JWKs.
std::string jwks_of(std::initializer_list<nlohmann::json> keys);

// A JWS with alg "none" and an empty signature.
std::string unsigned_token(const nlohmann::json& claims);
// A token with alg HS256 whose HMAC key is `secret` (the key-confusion attack).
std::string hs256_token(const nlohmann::json& claims, const std::string& secret,
                        const std::string& kid);
// header.payload joined, base64url-encoded, with `signature` (raw bytes).
std::string assemble(const nlohmann::json& header, const nlohmann::json& claims,
                     const std::string& signature);

}  // namespace allot::oidc::testing
