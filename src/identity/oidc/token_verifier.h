// TokenVerifier: verifies an OIDC ID token or JWT access token from the
// configured issuer, and says who it names.
//
// Contract: verify(token, now) parses the token (jwt.h: size limit, strict
// base64url and JSON, `alg` in the allow-list, never none or HMAC), finds the
// issuer's key for its `kid` (key_cache.h: one rate-limited refetch on an
// unknown kid), checks the signature with OpenSSL (jws_signature.h) and only
// then the claims (token_claims.h: iss, aud/azp, exp/nbf/iat with leeway,
// sub). A refused token is kUnauthenticated; keys that cannot be had are
// kUnavailable. Messages name the step or claim that failed, never the token
// or a claim's value. Time is the caller's `now`. Thread-safe: the cache is
// the only mutable state and it has its own lock.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "base/time.h"
#include "identity/oidc/jwks_source.h"
#include "identity/oidc/jwt.h"
#include "identity/oidc/key_cache.h"
#include "identity/oidc/token_claims.h"

namespace allot::oidc {

struct VerifierConfig {
  std::string issuer;     // --oidc-issuer, compared exactly with `iss`
  std::string client_id;  // --oidc-client-id, the audience
  std::string groups_claim = "groups";
  Duration leeway = Duration::seconds(60);
  std::vector<JwsAlg> allowed_algs = {JwsAlg::kRs256, JwsAlg::kEs256};
  KeyCacheOptions keys;
};

class TokenVerifier {
 public:
  // REQUIRES: `keys` outlives the verifier; config.allowed_algs not empty.
  TokenVerifier(VerifierConfig config, JwksSource& keys);

  Result<VerifiedToken> verify(std::string_view token, Timestamp now);

  [[nodiscard]] const VerifierConfig& config() const { return config_; }
  // How many JWKS fetches were made (tests, metrics).
  [[nodiscard]] int64_t jwks_fetches() const { return cache_.fetches(); }

 private:
  const VerifierConfig config_;
  const ClaimRules rules_;
  KeyCache cache_;
};

}  // namespace allot::oidc
