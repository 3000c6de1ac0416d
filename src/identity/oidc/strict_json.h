// Strict JSON for security documents: JWT headers and claims, JWKS and
// discovery documents.
//
// Contract: parses one JSON value and refuses what a lenient parser would let
// two readers understand differently: duplicate member names in any object
// (RFC 7515 section 5.2, RFC 7519 section 4), nesting deeper than
// kMaxJsonDepth, trailing text and invalid UTF-8. Errors name `what` and the
// kind of failure, never the document's text. No exception escapes. Pure
// function, thread-safe.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "base/result.h"

namespace allot::oidc {

inline constexpr int kMaxJsonDepth = 32;

// REQUIRES: nothing; `what` names the document in errors ("JWT claims").
Result<nlohmann::json> parse_strict_json(std::string_view text, std::string_view what);

}  // namespace allot::oidc
