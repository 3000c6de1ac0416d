// JWT in JWS compact serialization (RFC 7519, RFC 7515): the parsing half of
// token verification. Nothing here checks a signature or a claim's value.
//
// Contract: parse_jwt() splits "header.payload.signature", decodes each part
// with strict base64url, parses header and claims with strict JSON (duplicate
// names refused) and checks the header: `alg` must be one of `allowed`
// (never "none", never an HMAC alg: the algorithm list below has no member for
// them, so a token asking for one is refused before any key is looked at),
// `crit` is refused (no extension is understood), `kid` if present is a
// string. Embedded key headers (`jwk`, `jku`, `x5u`, `x5c`) are ignored: keys
// come only from the issuer's JWKS. Tokens over kMaxTokenBytes are refused
// unread. Errors say which part failed and why, never the token's text. Pure
// functions, thread-safe.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace allot::oidc {

inline constexpr size_t kMaxTokenBytes = size_t{16} * 1024;

// The signature algorithms a verifier may allow (RFC 7518 section 3.1).
enum class JwsAlg { kRs256, kPs256, kEs256 };

// "RS256", "PS256", "ES256".
std::string_view jws_alg_name(JwsAlg alg);
// The algorithm named `name`, or none (for "none", "HS256" and everything else).
std::optional<JwsAlg> jws_alg_from_name(std::string_view name);

struct ParsedJwt {
  JwsAlg alg = JwsAlg::kRs256;
  std::optional<std::string> kid;
  nlohmann::json header;
  nlohmann::json claims;
  // "header.payload" as received: the bytes the signature covers.
  std::string signing_input;
  // The decoded signature (RSA: the modulus' length; ES256: R||S, 64 bytes).
  std::string signature;
};

// Parses `token`; refuses an `alg` outside `allowed`.
Result<ParsedJwt> parse_jwt(std::string_view token, std::span<const JwsAlg> allowed);

}  // namespace allot::oidc
