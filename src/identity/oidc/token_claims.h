// The claim rules of token verification (RFC 7519 section 4.1, OpenID
// Connect Core section 3.1.3.7), applied to claims whose signature was
// already verified.
//
// Contract: check_claims() accepts the claims only if
//   - `iss` is a string equal to the configured issuer, byte for byte;
//   - `aud` is the client id, or an array that contains it; and if `azp` is
//     present it equals the client id. A token whose `aud` names another
//     service is refused even when its `azp` is our client: an access token
//     minted for another API is not a login to allot (token confusion);
//   - `exp` is present and now < exp + leeway; `nbf`, if present,
//     satisfies nbf <= now + leeway; `iat`, if present, is not more than
//     the leeway in the future (all NumericDate: seconds, integer or not);
//   - `sub` is a non-empty string.
// `email`, `name` (falling back to `preferred_username`) are read when they
// are strings; the groups claim (name configurable) may be absent, a string
// or an array of strings, anything else is refused. Errors name the claim
// that failed, never a claim's value or the token. Pure function, thread-safe.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/result.h"
#include "base/time.h"

namespace allot::oidc {

struct ClaimRules {
  std::string issuer;
  std::string client_id;
  std::string groups_claim = "groups";
  Duration leeway = Duration::seconds(60);
};

struct VerifiedToken {
  std::string issuer;
  std::string subject;
  std::optional<std::string> email;
  std::optional<std::string> name;
  std::vector<std::string> groups;
  Timestamp expires_at;
  std::optional<Timestamp> issued_at;
  nlohmann::json claims;  // every claim, as signed
};

Result<VerifiedToken> check_claims(const nlohmann::json& claims, const ClaimRules& rules,
                                   Timestamp now);

}  // namespace allot::oidc
