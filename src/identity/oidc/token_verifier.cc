#include "identity/oidc/token_verifier.h"

#include <utility>

#include "base/check.h"
#include "identity/oidc/jws_signature.h"

namespace allot::oidc {
namespace {

ClaimRules rules_of(const VerifierConfig& config) {
  return ClaimRules{.issuer = config.issuer,
                    .client_id = config.client_id,
                    .groups_claim = config.groups_claim,
                    .leeway = config.leeway};
}

}  // namespace

TokenVerifier::TokenVerifier(VerifierConfig config, JwksSource& keys)
    : config_(std::move(config)), rules_(rules_of(config_)), cache_(keys, config_.keys) {
  ALLOT_CHECK(!config_.allowed_algs.empty());
}

Result<VerifiedToken> TokenVerifier::verify(std::string_view token, Timestamp now) {
  ALLOT_ASSIGN_OR_RETURN(ParsedJwt jwt, parse_jwt(token, config_.allowed_algs));
  ALLOT_ASSIGN_OR_RETURN(Jwk key, cache_.key_for(jwt.kid, jwt.alg, now));
  ALLOT_RETURN_IF_ERROR(
      verify_jws_signature(jwt.alg, key.key.get(), jwt.signing_input, jwt.signature));
  return check_claims(jwt.claims, rules_, now);
}

}  // namespace allot::oidc
